package org.camdoop.shuffle.service;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.camdoop.shuffle.service.net.CutMessages;

/**
 * The root's record of one tree repair's cuts under way (docs/recovery.md, "Tree repair"): per tree, the daemon asked
 * to cut the failed vertex's parent there, and its answer once it came. An answer counts only from the daemon asked,
 * once. Guarded by the monitor of the shuffle it belongs to.
 */
final class RepairCuts {

    /** The daemon asked, what it was asked, and its answer (null until it came). */
    private record Asked(int host, CutMessages.Cut cut, CutMessages.CutDone answer) {
    }

    private final int failed;
    private final long failedRun;
    private final Map<Integer, Asked> trees = new TreeMap<>();

    /**
     * @param failed    the failed server, whose vertex's parents are cut
     * @param failedRun its run that failed
     */
    RepairCuts(int failed, long failedRun) {
        this.failed = failed;
        this.failedRun = failedRun;
    }

    int failed() {
        return failed;
    }

    long failedRun() {
        return failedRun;
    }

    /** The parent in {@code cut}'s tree runs on server {@code host}, which is asked {@code cut}. */
    void ask(int host, CutMessages.Cut cut) {
        trees.put(cut.tree(), new Asked(host, cut, null));
    }

    /** Calls {@code send} with each host and the cut it was asked that it has not answered yet. */
    void forEachUnanswered(java.util.function.BiConsumer<Integer, CutMessages.Cut> send) {
        trees.values().stream().filter(a -> a.answer() == null).forEach(a -> send.accept(a.host(), a.cut()));
    }

    /**
     * Takes {@code answer} from server {@code from}.
     *
     * @return whether it was expected: a tree asked of that server, not answered yet
     */
    boolean answer(int from, CutMessages.CutDone answer) {
        Asked a = trees.get(answer.tree());
        if (a == null || a.host() != from || a.answer() != null) {
            return false;
        }
        trees.put(answer.tree(), new Asked(from, a.cut(), answer));
        return true;
    }

    /** Whether every tree asked has its answer. */
    boolean complete() {
        return trees.values().stream().allMatch(a -> a.answer() != null);
    }

    /** The answers by tree, ascending (complete only). */
    Map<Integer, CutMessages.CutDone> answers() {
        Map<Integer, CutMessages.CutDone> out = new TreeMap<>();
        trees.forEach((t, a) -> out.put(t, a.answer()));
        return out;
    }

    /** The trees still unanswered, for a log line. */
    Optional<String> unanswered() {
        String s = trees.entrySet().stream().filter(e -> e.getValue().answer() == null)
                .map(e -> "tree " + e.getKey() + " (server index " + e.getValue().host() + ")").toList().toString();
        return complete() ? Optional.empty() : Optional.of(s);
    }
}
