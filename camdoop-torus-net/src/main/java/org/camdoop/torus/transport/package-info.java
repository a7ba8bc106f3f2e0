/** The Netty transport between torus daemons: links to neighbours, multiplexed credit-controlled streams, forwarding. */
package org.camdoop.torus.transport;
