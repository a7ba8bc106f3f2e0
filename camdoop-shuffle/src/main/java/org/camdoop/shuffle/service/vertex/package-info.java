/** Tree vertices: each merges its children's streams with its local map output and streams the result upwards. */
package org.camdoop.shuffle.service.vertex;
