package org.camdoop.shuffle.service;

import java.util.List;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;

/** The map outputs registered on this server for a job (the job registry in a daemon; a map in tests). */
@FunctionalInterface
public interface MapOutputCatalog {

    List<LocalMapOutput> outputsOf(String jobId);
}
