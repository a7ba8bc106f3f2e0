package org.camdoop.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the {@code camdoop} command line in-process: its exit status and what it printed. */
public record CliRun(int status, String out, String err) {

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = CamdoopCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(status, out.toString(), err.toString());
    }
}
