package org.camdoop.shuffle.jobs;

import org.camdoop.shuffle.protocol.JarDigest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarCacheTest {
    @TempDir
    Path dir;

    private static byte[] jar(int seed, int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) seed);
        return b;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void storesVerifiedJarsUnderTheirDigest() throws Exception {
        JarCache cache = JarCache.open(dir, 1 << 20);
        byte[] bytes = jar(1, 100);
        JarDigest d = JarDigest.of(bytes);
        JarDigest absent = JarDigest.of(jar(2, 1));

        Path stored = cache.put(d, bytes);

        assertEquals(dir.resolve(d.hex() + ".jar"), stored);
        assertTrue(Arrays.equals(bytes, Files.readAllBytes(stored)));
        assertTrue(cache.has(d));
        assertEquals(Optional.of(stored), cache.path(d));
        assertEquals(Optional.empty(), cache.path(absent));
        assertEquals(List.of(absent), cache.missing(List.of(d, absent)));
        assertEquals(100, cache.totalBytes());
    }

    @Test
    void wrongBytesAreRejectedAndLeaveNothingBehind() throws Exception {
        JarCache cache = JarCache.open(dir, 1 << 20);
        JarDigest expected = JarDigest.of(jar(1, 10));
        byte[] other = jar(9, 10);

        IOException e = assertThrows(IOException.class, () -> cache.put(expected, other));

        assertEquals("jar digest mismatch: expected " + expected + ", got " + JarDigest.of(other), e.getMessage());
        assertFalse(cache.has(expected));
        assertEquals(List.of(), files());
    }

    @Test
    void concurrentPutsOfTheSameJarStoreItOnce() throws Exception {
        JarCache cache = JarCache.open(dir, 1 << 20);
        byte[] bytes = jar(3, 200_000);
        JarDigest d = JarDigest.of(bytes);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Path>> puts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            puts.add(pool.submit(() -> {
                start.await();
                return cache.put(d, bytes);
            }));
        }
        start.countDown();
        for (Future<Path> f : puts) {
            assertEquals(dir.resolve(d.hex() + ".jar"), f.get(30, TimeUnit.SECONDS));
        }
        pool.shutdown();

        assertEquals(List.of(d.hex() + ".jar"), files());
        assertEquals(200_000, cache.totalBytes());
        assertTrue(Arrays.equals(bytes, Files.readAllBytes(cache.path(d).orElseThrow())));
    }

    @Test
    void evictsLeastRecentlyUsedUnpinnedJarsOverTheBound() throws Exception {
        JarCache cache = JarCache.open(dir, 250);
        JarDigest a = JarDigest.of(jar(1, 100));
        JarDigest b = JarDigest.of(jar(2, 100));
        JarDigest c = JarDigest.of(jar(3, 100));
        cache.put(a, jar(1, 100));
        cache.put(b, jar(2, 100));
        JarLease leaseA = cache.tryAcquire(List.of(a)).orElseThrow(); // a is older but pinned

        cache.put(c, jar(3, 100));

        assertTrue(cache.has(a));
        assertFalse(cache.has(b));
        assertTrue(cache.has(c));
        assertEquals(200, cache.totalBytes());
        assertFalse(Files.exists(dir.resolve(b.hex() + ".jar")));
        leaseA.close();
        leaseA.close(); // releasing twice must not unpin twice
        assertTrue(cache.has(a)); // within the bound again: nothing to evict
    }

    @Test
    void pinnedJarsAreNeverEvictedSoAnUploadWithoutRoomIsRefusedUntilTheyAreReleased() throws Exception {
        JarCache cache = JarCache.open(dir, 150);
        JarDigest a = JarDigest.of(jar(1, 100));
        JarDigest b = JarDigest.of(jar(2, 100));
        cache.put(a, jar(1, 100));
        JarLease pinA = cache.tryAcquire(List.of(a)).orElseThrow();

        assertEquals("jar " + b + " refused: the jar cache is full (100 bytes of jars in use, 0 bytes being uploaded,"
                + " bound 150)", assertThrows(java.io.IOException.class, () -> cache.put(b, jar(2, 100))).getMessage());
        assertTrue(cache.has(a));
        assertFalse(cache.has(b));
        assertEquals(100, cache.totalBytes());
        assertEquals(1, dirEntries(), "the refused upload left no temporary file");
        pinA.close();
        cache.put(b, jar(2, 100));
        assertFalse(cache.has(a));
        assertTrue(cache.has(b));
        assertEquals(100, cache.totalBytes());
    }

    @Test
    void aJarLargerThanTheBoundIsRefusedBeforeItsFirstByte() throws Exception {
        JarCache cache = JarCache.open(dir, 50);
        JarDigest big = JarDigest.of(jar(1, 100));
        assertEquals("jar " + big + " of 100 bytes exceeds the jar cache bound of 50 bytes"
                + " (camdoop.daemon.jar-cache.max-bytes)",
                assertThrows(java.io.IOException.class, () -> cache.begin(big, 100)).getMessage());
        assertFalse(cache.has(big));
        assertEquals(0, dirEntries());
    }

    @Test
    void uploadsInProgressCountInTheBoundAndAreBoundedInNumber() throws Exception {
        JarCache cache = JarCache.open(dir, 150, 1);
        JarDigest a = JarDigest.of(jar(1, 100));
        JarDigest b = JarDigest.of(jar(2, 40));
        try (JarCache.Upload first = cache.begin(a, 100)) {
            first.write(jar(1, 100), 0, 50);
            assertEquals("jar " + b + " refused: 1 jar uploads in progress (camdoop.daemon.jar-cache.max-uploads)",
                    assertThrows(java.io.IOException.class, () -> cache.begin(b, 40)).getMessage());
        }
        assertEquals(0, dirEntries(), "an abandoned upload leaves nothing behind");
        JarCache two = JarCache.open(dir, 150, 2);
        try (JarCache.Upload first = two.begin(a, 100)) {
            JarDigest c = JarDigest.of(jar(3, 60));
            assertEquals("jar " + c + " refused: the jar cache is full (0 bytes of jars in use, 100 bytes being"
                    + " uploaded, bound 150)", assertThrows(java.io.IOException.class, () -> two.begin(c, 60))
                            .getMessage());
            first.write(jar(1, 100), 0, 100);
            first.finish();
        }
        assertTrue(two.has(a));
        assertEquals(100, two.totalBytes());
    }

    private long dirEntries() throws java.io.IOException {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
            return files.count();
        }
    }

    @Test
    void acquireOfAnUncachedJarPinsNothing() throws Exception {
        JarCache cache = JarCache.open(dir, 150);
        JarDigest a = JarDigest.of(jar(1, 100));
        JarDigest absent = JarDigest.of(jar(2, 1));
        cache.put(a, jar(1, 100));

        assertTrue(cache.tryAcquire(List.of(a, absent)).isEmpty());
        cache.put(JarDigest.of(jar(3, 100)), jar(3, 100));
        assertFalse(cache.has(a), "a was not left pinned by the failed acquire");
    }

    @Test
    void reopeningKeepsJarsAndDropsLeftoverTemporaryFiles() throws Exception {
        JarCache first = JarCache.open(dir, 1 << 20);
        JarDigest a = JarDigest.of(jar(1, 100));
        first.put(a, jar(1, 100));
        Files.write(dir.resolve(".incoming-123.jar"), new byte[] {1});

        JarCache second = JarCache.open(dir, 1 << 20);

        assertTrue(second.has(a));
        assertEquals(100, second.totalBytes());
        assertEquals(List.of(a.hex() + ".jar"), files());
    }

    @Test
    void putFileCopiesALocalJar() throws Exception {
        Path local = Files.write(Files.createDirectories(dir.resolve("local")).resolve("job.jar"), jar(4, 10));
        JarCache cache = JarCache.open(dir.resolve("cache"), 1 << 20);

        JarDigest d = cache.putFile(local);

        assertEquals(JarDigest.of(jar(4, 10)), d);
        assertTrue(cache.has(d));
    }
}
