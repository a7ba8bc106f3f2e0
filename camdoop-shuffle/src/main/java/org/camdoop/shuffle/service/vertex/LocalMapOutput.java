package org.camdoop.shuffle.service.vertex;

import org.apache.hadoop.fs.Path;

/** A map output on this server's disk: the attempt that wrote it and its {@code file.out} and {@code file.out.index}. */
public record LocalMapOutput(String attemptId, Path file, Path index) {
}
