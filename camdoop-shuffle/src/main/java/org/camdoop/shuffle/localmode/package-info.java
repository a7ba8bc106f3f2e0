/**
 * Local mode (LocalJobRunner): the one place where a task runs daemons in its own JVM. {@link
 * org.camdoop.shuffle.localmode.LocalTorusSource} starts an embedded torus and serves the reduce from it, behind the
 * protocol's {@link org.camdoop.shuffle.protocol.StreamSource}. The Hadoop bridges reach the daemon side only through
 * this package.
 */
package org.camdoop.shuffle.localmode;
