package org.camdoop.shuffle.jobs;

import java.lang.reflect.Field;
import java.util.Map;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop keeps classes in static maps that never forget them: {@code ReflectionUtils.CONSTRUCTOR_CACHE} (every class
 * instantiated by {@link ReflectionUtils#newInstance}, e.g. a combiner or comparator) and
 * {@code WritableComparator.comparators} (comparators a user key class registers). In a task JVM that does not
 * matter; in a long-running daemon each entry would pin a finished job's class loader forever. This removes the
 * entries of one loader's classes. The fields are private, so it uses reflection and only logs if Hadoop changes them
 * (Configuration's own class cache is weak and needs nothing). Stateless.
 */
final class HadoopClassCaches {
    private static final Logger LOG = LoggerFactory.getLogger(HadoopClassCaches.class);

    private HadoopClassCaches() {}

    static void forget(ClassLoader loader) {
        forget(ReflectionUtils.class, "CONSTRUCTOR_CACHE", loader);
        forget(WritableComparator.class, "comparators", loader);
    }

    private static void forget(Class<?> owner, String fieldName, ClassLoader loader) {
        try {
            Field f = owner.getDeclaredField(fieldName);
            f.setAccessible(true);
            Map<?, ?> cache = (Map<?, ?>) f.get(null);
            // Both maps are concurrent or synchronized by Hadoop; removeIf on the key view is safe for either.
            synchronized (cache) {
                cache.keySet().removeIf(k -> k instanceof Class<?> c && definedBy(c, loader));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("cannot clear {}.{}; the class loader of a finished job may stay in memory",
                    owner.getSimpleName(), fieldName, e);
        }
    }

    private static boolean definedBy(Class<?> c, ClassLoader loader) {
        for (ClassLoader l = c.getClassLoader(); l != null; l = l.getParent()) {
            if (l == loader) {
                return true;
            }
        }
        return false;
    }
}
