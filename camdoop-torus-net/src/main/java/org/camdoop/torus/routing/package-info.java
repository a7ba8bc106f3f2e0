/** Key-based routing: 160-bit identifiers mapped to live servers, and shortest live paths between servers. */
package org.camdoop.torus.routing;
