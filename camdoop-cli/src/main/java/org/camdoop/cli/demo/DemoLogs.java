package org.camdoop.cli.demo;

import java.nio.file.Path;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.slf4j.LoggerFactory;

/**
 * Sends the in-process cluster's logging to a file, so the demo's terminal shows its own progress lines and the table
 * only: SLF4J's simple binding (Hadoop's logging here) writes to {@code file}, and java.util.logging (Guice, Jersey)
 * is routed through SLF4J into the same file. Must run before the first SLF4J logger is created, which is when the
 * simple binding reads its settings.
 */
public final class DemoLogs {

    private DemoLogs() {
    }

    public static void redirect(Path file) {
        System.setProperty("org.slf4j.simpleLogger.logFile", file.toString());
        LogManager.getLogManager().reset();
        java.util.logging.Logger.getLogger("").addHandler(new Handler() {
            private final SimpleFormatter format = new SimpleFormatter();

            @Override
            public void publish(LogRecord r) {
                if (isLoggable(r)) {
                    LoggerFactory.getLogger(r.getLoggerName() == null ? "jul" : r.getLoggerName())
                            .warn(format.formatMessage(r));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }
}
