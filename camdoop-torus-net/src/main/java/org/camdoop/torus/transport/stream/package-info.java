/** Streams multiplexed on links: credit-based flow control, the shared buffer budget and weighted link scheduling. */
package org.camdoop.torus.transport.stream;
