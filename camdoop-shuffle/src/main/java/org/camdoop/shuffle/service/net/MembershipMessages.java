package org.camdoop.shuffle.service.net;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.WritableUtils;

/**
 * The service messages that keep every daemon's failure view: which servers' daemons failed and which links are
 * routed around, each named with the <em>incarnations</em> it concerns (which run of a daemon process: a restarted
 * daemon has a larger one, see {@code TorusNode#incarnation}). Decoded through {@link ShuffleMessages#decode}, which
 * owns the type byte.
 *
 * <pre>
 * u8 type
 * 6  SERVER_DOWN  run                 -- a neighbour declared this run of the server's daemon failed
 * 8  LINK_CUT     link                -- the link stayed down between these runs of its ends' daemons: routed around
 * 9  LINK_UP      link                -- the link came up between these runs: a later run of a failed server rejoins,
 *                                        and a cut made at earlier runs of either end is lifted
 * 10 VIEW         u8 ask (0 or 1); vint u; u x link; vint c; c x link; vint f; f x run
 *                                     -- a daemon's ups that lifted something, cuts and failures (in the order to
 *                                        apply them), sent to a neighbour whose link just came up (a restarted daemon
 *                                        learns the view this way); ask = 1: answer with your view (a daemon whose
 *                                        service started after its links came up asks its neighbours)
 * run  = vint server index; vlong incarnation (>= 0; 0: no connection to it ever came up)
 * link = run a; run b (a and b neighbours)
 * </pre>
 * SERVER_DOWN goes from the declaring daemon to every live daemon; LINK_CUT and LINK_UP flood one hop at a time, each
 * daemon passing on only what changed its view. Every daemon merges what it hears by maximum (see {@code Membership}),
 * so the views converge whatever order the messages arrive in.
 */
public final class MembershipMessages {

    public static final int SERVER_DOWN = 6;
    public static final int LINK_CUT = 8;
    public static final int LINK_UP = 9;
    public static final int VIEW = 10;
    /** Server indices, and entries of a VIEW, a message may name (a bound for the decoder, far above any real use). */
    private static final int MAX_INDEX = 1 << 16;

    private MembershipMessages() {
    }

    /** One run of server {@code server}'s daemon. */
    public record ServerRun(int server, long incarnation) {
    }

    /** The link between neighbours {@code a} and {@code b}, between these runs of their daemons. */
    public record LinkRuns(int a, long aIncarnation, int b, long bIncarnation) {

        /** The same link with its ends in ascending order of index. */
        public LinkRuns ordered() {
            return a <= b ? this : new LinkRuns(b, bIncarnation, a, aIncarnation);
        }
    }

    /** A neighbour declared run {@code run} failed: every daemon that hears it takes it into its failure view. */
    public record ServerDown(ServerRun run) implements ShuffleMessages.Message {
    }

    /** The link stayed down though both ends may be alive: every daemon that hears it routes around the link. */
    public record LinkCut(LinkRuns link) implements ShuffleMessages.Message {
    }

    /** The link came up between these runs of its ends. */
    public record LinkUp(LinkRuns link) implements ShuffleMessages.Message {
    }

    /** A daemon's whole failure view, for a neighbour whose link just came up; {@code ask}: answer with yours. */
    public record View(boolean ask, List<ServerRun> failed, List<LinkRuns> cuts, List<LinkRuns> ups)
            implements ShuffleMessages.Message {

        public View {
            failed = List.copyOf(failed);
            cuts = List.copyOf(cuts);
            ups = List.copyOf(ups);
        }
    }

    public static byte[] serverDown(ServerRun run) {
        return ShuffleMessages.write(out -> {
            out.writeByte(SERVER_DOWN);
            write(out, run);
        });
    }

    public static byte[] linkCut(LinkRuns link) {
        return ShuffleMessages.write(out -> {
            out.writeByte(LINK_CUT);
            write(out, link);
        });
    }

    public static byte[] linkUp(LinkRuns link) {
        return ShuffleMessages.write(out -> {
            out.writeByte(LINK_UP);
            write(out, link);
        });
    }

    public static byte[] view(View v) {
        return ShuffleMessages.write(out -> {
            out.writeByte(VIEW);
            out.writeByte(v.ask() ? 1 : 0);
            for (List<LinkRuns> links : List.of(v.ups(), v.cuts())) {
                WritableUtils.writeVInt(out, links.size());
                for (LinkRuns l : links) {
                    write(out, l);
                }
            }
            WritableUtils.writeVInt(out, v.failed().size());
            for (ServerRun r : v.failed()) {
                write(out, r);
            }
        });
    }

    static ShuffleMessages.Message decode(int type, DataInputStream in) throws IOException {
        return switch (type) {
            case SERVER_DOWN -> new ServerDown(run(in));
            case LINK_CUT -> new LinkCut(link(in));
            case LINK_UP -> new LinkUp(link(in));
            case VIEW -> {
                int ask = in.readUnsignedByte();
                if (ask > 1) {
                    throw new IllegalArgumentException("VIEW has ask flag " + ask);
                }
                List<LinkRuns> ups = links(in);
                List<LinkRuns> cuts = links(in);
                List<ServerRun> failed = new ArrayList<>();
                for (int i = count(in); i > 0; i--) {
                    failed.add(run(in));
                }
                yield new View(ask == 1, failed, cuts, ups);
            }
            default -> throw new IllegalArgumentException("not a membership message type: " + type);
        };
    }

    private static List<LinkRuns> links(DataInputStream in) throws IOException {
        List<LinkRuns> links = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            links.add(link(in));
        }
        return links;
    }

    private static int count(DataInputStream in) throws IOException {
        return ShuffleMessages.bounded(in, MAX_INDEX, "entry count");
    }

    private static ServerRun run(DataInputStream in) throws IOException {
        return new ServerRun(ShuffleMessages.bounded(in, MAX_INDEX, "server index"), ShuffleMessages.incarnation(in));
    }

    private static LinkRuns link(DataInputStream in) throws IOException {
        ServerRun a = run(in);
        ServerRun b = run(in);
        return new LinkRuns(a.server(), a.incarnation(), b.server(), b.incarnation());
    }

    private static void write(DataOutputStream out, ServerRun r) throws IOException {
        WritableUtils.writeVInt(out, r.server());
        WritableUtils.writeVLong(out, r.incarnation());
    }

    private static void write(DataOutputStream out, LinkRuns l) throws IOException {
        write(out, new ServerRun(l.a(), l.aIncarnation()));
        write(out, new ServerRun(l.b(), l.bIncarnation()));
    }
}
