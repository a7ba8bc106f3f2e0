/**
 * Daemons: the standalone process, the NodeManager shuffle handler that hosts one (CamdoopShuffleHandler), and the
 * embedded multi-daemon torus.
 */
package org.camdoop.shuffle.daemon;
