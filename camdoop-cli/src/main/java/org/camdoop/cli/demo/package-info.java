/**
 * {@code camdoop demo}: the same stock WordCount on a mini cluster with Hadoop's shuffle and with Camdoop, the outputs
 * compared byte for byte and the two runs summarised side by side.
 */
package org.camdoop.cli.demo;
