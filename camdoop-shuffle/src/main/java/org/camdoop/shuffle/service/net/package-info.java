/** Binds vertices to the torus transport: their streams, and the service messages that start and abort shuffles. */
package org.camdoop.shuffle.service.net;
