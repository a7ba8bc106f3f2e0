package org.camdoop.shuffle.service;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Netty's leak detector samples buffers (advanced: one in {@code io.netty.leakDetection.samplingInterval}, 32 in the
 * build's argLine) during a class that runs many whole shuffles, and goes back to tracking every buffer (the build's
 * paranoid) after it. Paranoid cost the fault campaign and the recovery tests about a third of their time (45.6 s and
 * 20.1 s against 33.1 s and 13.1 s). A buffer leaked once per shuffle is still reported: the fault campaign's 100
 * runs would sample it about three times. Leaks are logged ("LEAK:"), as under paranoid; the release paths on failure
 * stay under paranoid in FailureCleanupTest.
 *
 * <p>The level is global to the JVM; surefire runs this module's classes one after another, so only the annotated
 * class sees it.
 */
final class SampledLeakDetection implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            SampledLeakDetection.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(ResourceLeakDetector.Level.class, ResourceLeakDetector.getLevel());
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.ADVANCED);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ResourceLeakDetector.setLevel(context.getStore(NAMESPACE).get(ResourceLeakDetector.Level.class,
                ResourceLeakDetector.Level.class));
    }
}
