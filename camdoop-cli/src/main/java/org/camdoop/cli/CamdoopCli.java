package org.camdoop.cli;

import java.io.PrintWriter;
import org.camdoop.bench.BenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The entry point of {@code scripts/camdoop}. Every tool is a subcommand with its own {@code --help}; bad arguments
 * print one line naming the problem and exit with status 2.
 */
@Command(name = "camdoop", mixinStandardHelpOptions = true, version = "camdoop 0.1.0",
        description = "Camdoop for Hadoop: command-line tools.",
        subcommands = {TopologyCommand.class, BenchCommand.class, SimulateCommand.class, MiniClusterCommand.class,
            DemoCommand.class, StatusCommand.class, org.camdoop.cli.fuzz.FuzzCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "Run by scripts/camdoop on the runtime's own class path, not this tool's:",
            "  daemon       Run one Camdoop daemon in the foreground until stopped",
            "                 (scripts/camdoop daemon --help).",
            "  testbed      A torus of daemon processes in network namespaces on this machine, one veth pair",
            "                 per link shaped with tc; needs root (scripts/camdoop testbed help)."})
public final class CamdoopCli {

    /** Exit status for bad arguments, as picocli and most Unix tools use. */
    public static final int USAGE = 2;

    /** Exit status when a tool ran but could not do its work (one line on stderr says why). */
    public static final int FAILED = 1;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line on the process's streams and returns the exit status. */
    public static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Runs the command line writing to {@code out} and {@code err}; returns the exit status. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new CamdoopCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("camdoop: " + ex.getMessage());
            return USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof IllegalArgumentException) {
                commandLine.getErr().println("camdoop " + commandLine.getCommandName() + ": " + ex.getMessage());
                return USAGE;
            }
            if (ex instanceof IllegalStateException
                    || ex instanceof org.camdoop.torus.transport.stream.BudgetExhaustedException) {
                // An operational failure (the budget cannot hold the streams, a link never came up): one line.
                commandLine.getErr().println("camdoop " + commandLine.getCommandName() + ": " + ex.getMessage());
                return FAILED;
            }
            throw ex;
        });
        int status = cli.execute(args);
        out.flush();
        err.flush();
        return status;
    }
}
