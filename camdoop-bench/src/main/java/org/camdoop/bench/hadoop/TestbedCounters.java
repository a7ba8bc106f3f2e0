package org.camdoop.bench.hadoop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The testbed's own counters at one instant: bytes every host sent on its torus links and on its switch port, read
 * from the kernel's interface statistics ({@code ip -j -s link} in each host's namespace), and the machine's CPU
 * time from {@code /proc/stat}. Two snapshots around a job give what the job put on the wire and how busy the cores
 * were: nothing here comes from Camdoop's or Hadoop's own accounting.
 *
 * <p>Torus links are the veth ends named {@code tI-J} in the server namespaces {@code camdoop-X_Y_Z}; each host's
 * switch port is its {@code sw} end (the master's too). Bytes are counted once per wire they cross: a byte relayed
 * over k torus hops k times, a byte through the switch twice (the sender's port up, the receiver's port down), as on
 * a physical cluster where a switched byte occupies two links.
 *
 * @param torusBytes bytes sent on all torus links
 * @param switchBytes bytes on the switch ports' wires, both directions (each switched byte twice)
 * @param cpuBusy jiffies the machine's cores were busy (user, nice, system, irq, softirq, steal)
 * @param cpuTotal all jiffies of all cores (idle and iowait included)
 */
record TestbedCounters(long torusBytes, long switchBytes, long cpuBusy, long cpuTotal) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads all counters now. */
    static TestbedCounters read() throws IOException, InterruptedException {
        long torus = 0;
        long sw = 0;
        for (String ns : namespaces()) {
            for (JsonNode link : JSON.readTree(run("ip", "-j", "-n", ns, "-s", "link", "show"))) {
                String name = link.path("ifname").asText();
                long sent = link.path("stats64").path("tx").path("bytes").asLong();
                if (name.matches("t\\d+-\\d+")) {
                    torus += sent;
                } else if (name.equals("sw")) {
                    // Both wires of the port: host to switch (sent) and switch to host (received).
                    sw += sent + link.path("stats64").path("rx").path("bytes").asLong();
                }
            }
        }
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length && i <= 8; i++) {
            total += Long.parseLong(cpu[i]);
        }
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        return new TestbedCounters(torus, sw, total - idle, total);
    }

    /** What happened between {@code before} and this snapshot. */
    TestbedCounters minus(TestbedCounters before) {
        return new TestbedCounters(torusBytes - before.torusBytes, switchBytes - before.switchBytes,
                cpuBusy - before.cpuBusy, cpuTotal - before.cpuTotal);
    }

    /** The busy share of all cores, 0 to 1. */
    double cpuShare() {
        return cpuTotal == 0 ? 0 : (double) cpuBusy / cpuTotal;
    }

    /** The testbed's host namespaces: the torus servers' and the master's (not the switch's). */
    private static List<String> namespaces() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String line : run("ip", "netns", "list").split("\n")) {
            String name = line.split("\\s+")[0];
            if (name.startsWith("camdoop-") && !name.equals("camdoop-switch")) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalStateException("no testbed is up (no camdoop-* network namespace): run"
                    + " scripts/camdoop testbed up");
        }
        return names;
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
