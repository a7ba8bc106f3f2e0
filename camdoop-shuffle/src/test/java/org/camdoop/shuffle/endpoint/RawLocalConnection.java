package org.camdoop.shuffle.endpoint;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.camdoop.shuffle.protocol.LocalWire;
import org.camdoop.shuffle.protocol.Refusal;

/** An attacker's connection to a daemon's socket: raw bytes out, frames in, no client-side checks. */
final class RawLocalConnection implements AutoCloseable {
    private final SocketChannel channel;
    private final DataOutputStream out;
    private final DataInputStream in;

    RawLocalConnection(Path socket) throws IOException {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        out = new DataOutputStream(Channels.newOutputStream(channel));
        in = new DataInputStream(Channels.newInputStream(channel));
    }

    /** Sends a frame header announcing {@code length} bytes of type {@code type}, then {@code body} (maybe less). */
    void sendHeader(int length, int type, byte[] body) throws IOException {
        out.writeInt(length);
        out.writeByte(type);
        out.write(body);
        out.flush();
    }

    /** Sends a whole frame. */
    void send(int type, byte[] body) throws IOException {
        sendHeader(body.length + 1, type, body);
    }

    /** Sends raw bytes, framed or not. */
    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Tells the daemon nothing more will come (it reads end of stream). */
    void finishSending() throws IOException {
        channel.shutdownOutput();
    }

    /** The next frame from the daemon, or {@code null} when it closed the connection cleanly. */
    LocalWire.Frame nextOrEnd() throws IOException {
        return LocalWire.read(in, LocalWire::replyCap);
    }

    /** The next frame from the daemon. */
    LocalWire.Frame reply() throws IOException {
        LocalWire.Frame f = LocalWire.read(in, LocalWire::replyCap);
        if (f == null) {
            throw new IOException("the daemon closed the connection without answering");
        }
        return f;
    }

    /** The next frame is OK; a REFUSED one fails with its message, so a test that fails says why. */
    void expectOk() throws IOException {
        LocalWire.Frame f = reply();
        if (f.type() == LocalWire.REFUSED) {
            DataInputStream r = f.in();
            Refusal why = Refusal.of(r.readUnsignedByte());
            throw new IOException("expected OK, got REFUSED " + why + ": " + r.readUTF());
        }
        if (f.type() != LocalWire.OK) {
            throw new IOException("expected OK, got frame type " + f.type());
        }
    }

    /** The exact message of the REFUSED frame that comes next; anything else is an error. */
    String refusal(Refusal expected) throws IOException {
        LocalWire.Frame f = reply();
        if (f.type() != LocalWire.REFUSED) {
            throw new IOException("expected REFUSED, got frame type " + f.type());
        }
        DataInputStream r = f.in();
        Refusal why = Refusal.of(r.readUnsignedByte());
        String message = r.readUTF();
        if (why != expected) {
            throw new IOException("expected " + expected + ", got " + why + ": " + message);
        }
        return message;
    }

    /** Blocks until the daemon closes the connection; true if it sent nothing more before. */
    boolean closedByDaemon() throws IOException {
        try {
            return in.read() < 0;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
