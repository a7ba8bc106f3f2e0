/**
 * The task side of the local protocol: {@link org.camdoop.shuffle.client.DaemonClient}, a blocking java.io connection
 * to the daemon on the task's server (task JVMs carry Hadoop's Netty, not ours), and
 * {@link org.camdoop.shuffle.client.DaemonLocator}, how a task finds that daemon. Depends on
 * {@code org.camdoop.shuffle.protocol} only, never on daemon classes.
 */
package org.camdoop.shuffle.client;
