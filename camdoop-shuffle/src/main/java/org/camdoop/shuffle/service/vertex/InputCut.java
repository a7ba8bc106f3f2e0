package org.camdoop.shuffle.service.vertex;

import java.util.Optional;

/**
 * Where a tree repair's cut left one input of a vertex (the failed vertex's parent): ended already (nothing to
 * replace), or the key the replacing stream resumes after, and whether that key's records were all taken
 * ({@code exact}; if not, the input was passing on a key group too large to hold back, and cannot resume exactly).
 */
public record InputCut(boolean ended, Optional<byte[]> lastKey, boolean exact) {
}
