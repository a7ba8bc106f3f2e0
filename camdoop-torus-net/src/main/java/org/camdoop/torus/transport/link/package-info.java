/** One link to a torus neighbour: handshake, heartbeats, reconnection with backoff and optional rate shaping. */
package org.camdoop.torus.transport.link;
