package org.camdoop.shuffle.daemon.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.mapred.JobConf;
import org.camdoop.shuffle.daemon.EmbeddedTorus;
import org.camdoop.shuffle.protocol.ShuffleKeys;
import org.camdoop.shuffle.protocol.ShuffleMode;
import org.camdoop.shuffle.protocol.ShuffleSpec;
import org.camdoop.shuffle.protocol.StreamItem;
import org.camdoop.shuffle.service.RootStream;
import org.camdoop.shuffle.service.vertex.LocalMapOutput;
import org.camdoop.shuffle.testing.WordCounts;
import org.camdoop.torus.topology.Coord;
import org.camdoop.torus.topology.FailureView;
import org.camdoop.torus.topology.Port;
import org.camdoop.torus.topology.TorusShape;
import org.camdoop.torus.transport.TransportConfig;
import org.camdoop.torus.trees.TreeChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The status page in a real browser (headless Chromium, which {@code .ci/run} installs with its driver): during a
 * running shuffle on an embedded 3x3x3 torus it draws all 81 links up, some of them carrying load, and the shuffle;
 * after a link cut it marks exactly that link down, then routed around (half the failure timeout later), and still
 * routed around once it is back up: unused until an end restarts. The screenshot goes to
 * {@code target/status-page.png}
 * ({@code docs/images/status-page.png} is one).
 */
class StatusPageBrowserTest {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String DRIVER = "/usr/bin/chromedriver";
    private static final String JOB = "job_1700000000000_0042";

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void theTorusItsLoadAndACutLinkInABrowser() throws Exception {
        assertTrue(Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(DRIVER)),
                "needs Debian's chromium and chromium-driver (.ci/run installs them): " + CHROMIUM + ", " + DRIVER);
        TorusShape shape = TorusShape.parse("3x3x3");
        // Shaped links keep the shuffle running for seconds (about 7: many of the page's polls, a second apart, even
        // on a loaded machine); a cut link is held down 6 s, as a pulled cable, before its redial (a start-up dial
        // that came too early waits as long), and is routed around after 2 s, half the failure timeout.
        TransportConfig config = TransportConfig.of(Map.of(TransportConfig.CLUSTER_SECRET,
                "status-page-test-cluster-secret-32-bytes", TransportConfig.SHAPING_BYTES_PER_SECOND, "200000",
                TransportConfig.RECONNECT_INITIAL_MS, "6000", TransportConfig.RECONNECT_MAX_MS, "6000",
                TransportConfig.FAILURE_TIMEOUT_MS, "4000"));
        JobConf job = WordCounts.job(1);
        TreeSet<String> attempts = new TreeSet<>();
        try (EmbeddedTorus torus = EmbeddedTorus.start(FailureView.none(shape), config, EmbeddedTorus.Wiring.IN_JVM,
                2)) {
            torus.registerJob(JOB, job);
            for (int s = 0; s < shape.size(); s++) {
                String attempt = String.format("attempt_1700000000000_0042_m_%06d_0", s);
                Map<String, Integer> counts = new TreeMap<>();
                for (int w = 0; w < 12_000; w++) {
                    counts.put("server" + s + "-word" + w, w);
                }
                org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve(attempt + ".out").toString());
                org.apache.hadoop.fs.Path index = out.suffix(".index");
                WordCounts.write(job, out, index, counts);
                torus.addMapOutput(s, JOB, new LocalMapOutput(attempt, out, index));
                attempts.add(attempt);
            }
            Coord root = new Coord(1, 1, 1);

            ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
                    .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900");
            ChromeDriverService driverService = new ChromeDriverService.Builder()
                    .usingDriverExecutable(Path.of(DRIVER).toFile()).usingAnyFreePort().build();
            try (StatusHttpServer page = torus.startStatusServer(new InetSocketAddress("127.0.0.1", 0),
                    shape.index(root))) {
                WebDriver browser = new ChromeDriver(driverService, options);
                try {
                    browser.get("http://127.0.0.1:" + page.address().getPort() + "/");
                    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
                    WebElement summary = browser.findElement(By.id("summary"));
                    wait.until(b -> "81".equals(summary.getAttribute("data-links-up")));
                    // The page redraws its SVG every second: read it in one script, never through elements found earlier.
                    assertEquals(81L, js(browser, "return document.querySelectorAll('path.link.up').length"));
                    assertEquals(27L, js(browser, "return document.querySelectorAll('g.node').length"));
                    assertEquals("1,1,1", js(browser, "return document.querySelector('g.node.self').dataset.coord"));
                    // The shuffle starts once the page draws the torus: a browser that came up slowly on a loaded
                    // machine once found a shuffle started before it already over.
                    RootStream stream = torus.service(shape.index(root)).startShuffle(new ShuffleSpec(
                            ShuffleKeys.jobKey(JOB), JOB, 0, 0, root, ShuffleMode.NOAGG, TreeChoice.SIX, attempts));
                    CompletableFuture<StreamItem> end = CompletableFuture.supplyAsync(() -> drain(stream));
                    // While the shuffle runs: its row, and links coloured by the bytes they carry between two polls.
                    wait.until(b -> b.findElement(By.cssSelector("#shuffles tbody")).getText().contains(JOB + " 0 1,1,1"));
                    wait.until(b -> (Boolean) js(b, "return [...document.querySelectorAll('path.link')]"
                            + ".some(l => l.getAttribute('stroke') !== '#bbb')"));
                    wait.until(b -> b.findElement(By.cssSelector("#jobs tbody")).getText().contains(JOB + " 27 27"));

                    assertInstanceOf(StreamItem.End.class, end.get(120, TimeUnit.SECONDS), "the shuffle completes");
                    torus.node(0).cutLink(Port.PLUS_X, Duration.ofSeconds(6));
                    wait.until(b -> "1".equals(summary.getAttribute("data-links-down")));
                    assertEquals(List.of("0,0,0+x"), js(browser, "return [...document.querySelectorAll('path.link.down')]"
                            + ".map(l => l.dataset.link)"));
                    assertEquals("80", summary.getAttribute("data-links-up"));
                    assertTrue(summary.getText().contains("27 daemons answer, 0 do not; 80 of 81 links up"),
                            summary.getText());
                    // Routed around while down, and after its redial: up, and unused.
                    wait.until(b -> "1".equals(summary.getAttribute("data-links-routed-around")));
                    wait.until(b -> "81".equals(summary.getAttribute("data-links-up")));
                    assertEquals(List.of("0,0,0+x"), js(browser, "return [...document.querySelectorAll("
                            + "'path.link.up.routed')].map(l => l.dataset.link)"));
                    assertTrue(summary.getText().contains("27 daemons answer, 0 do not; 81 of 81 links up, 1 routed"
                            + " around"), summary.getText());
                    Path shot = Path.of("target", "status-page.png");
                    Files.createDirectories(shot.getParent());
                    Files.write(shot, ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES));
                } finally {
                    browser.quit();
                }
            }
        }
    }

    private static Object js(WebDriver browser, String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static StreamItem drain(RootStream stream) {
        try {
            StreamItem item;
            do {
                item = stream.next(Duration.ofSeconds(60));
            } while (item instanceof StreamItem.Chunk);
            return item;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new StreamItem.Failed("interrupted");
        }
    }
}
