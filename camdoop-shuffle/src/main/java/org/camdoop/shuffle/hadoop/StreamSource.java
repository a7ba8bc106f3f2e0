package org.camdoop.shuffle.hadoop;

import java.io.Closeable;
import java.io.IOException;
import org.camdoop.shuffle.service.RootStream;

/** Where a reduce attempt's merged stream comes from: the local daemon's socket, or an embedded torus in local mode. */
interface StreamSource extends Closeable {
    /** The next Chunk, or the End or Failed that closes the stream; blocks. */
    RootStream.Next next() throws IOException, InterruptedException;
}
