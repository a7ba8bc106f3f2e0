package org.camdoop.shuffle.service;

/** One shuffle on the torus: a job's stream key and a reduce partition. */
record ShuffleKey(long streamKey, int partition) {
}
