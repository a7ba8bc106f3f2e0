/** JMH microbenchmarks of the engine's hot paths (merge and combine, frame codec, tree computation), run by {@code camdoop bench micro}. */
package org.camdoop.bench.micro;
