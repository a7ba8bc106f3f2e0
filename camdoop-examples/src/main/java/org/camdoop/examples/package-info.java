/** The command-line front end ({@code scripts/camdoop}), workload generators, benchmarks and the demo. */
package org.camdoop.examples;
