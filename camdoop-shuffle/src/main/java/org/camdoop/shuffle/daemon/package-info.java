/** Daemons: the standalone process, the YARN auxiliary service, and the embedded multi-daemon torus. */
package org.camdoop.shuffle.daemon;
