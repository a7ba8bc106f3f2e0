/**
 * The local protocol between a task (map-output collector, shuffle consumer) and the Camdoop daemon on its server:
 * {@link org.camdoop.shuffle.local.LocalEndpoint} in the daemon, {@link org.camdoop.shuffle.local.DaemonClient} in the
 * task, {@link org.camdoop.shuffle.local.LocalWire} the framing (byte tables there and in docs/local-protocol.md), and
 * {@link org.camdoop.shuffle.local.DaemonLocator} how a task finds its daemon. The client uses plain java.io sockets
 * only: task JVMs carry Hadoop's Netty, not ours.
 */
package org.camdoop.shuffle.local;
