package dev.inferbench.serve;

import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * The closed loop's arrivals: {@code users} users, each sending its next request the moment its last one ended (its
 * last token, for a streamed response), as GenAI-Perf's {@code --concurrency} and perf_analyzer's concurrency mode
 * do. Every user sends its first request at the step's start, and each next one from the thread that saw its last one
 * end, straight into the queue. A request's intended start is when its user sent it, so its latency and TTFT count
 * from there, whatever it then waited for a caller or for room in the cache. A closed loop
 * offers no rate of its own: it sends as fast as the service answers, which is why it hides a stall that an open loop
 * shows (each user waits politely); it answers a different question, how a fixed number of users fare.
 */
final class Users implements OpenLoop.Source {
    private static final long POLL_MS = 10;

    private final int users;
    /** Which user sent each request of the step, by its index. */
    private final int[] userOf;
    private Issuer issuer; // guarded by this
    /** The next request to send. */
    private int next; // guarded by this

    Users(int users, int requests) {
        if (users < 1) {
            throw new IllegalArgumentException("a closed loop needs at least one user, got " + users);
        }
        this.users = users;
        this.userOf = new int[requests];
    }

    /** Every user sends at the start; then the users send from {@link #ended}, and this waits for the last. */
    @Override
    public void issue(Issuer issuer, BooleanSupplier stop) throws InterruptedException {
        OpenLoop.waitUntil(issuer.start());
        synchronized (this) {
            this.issuer = issuer;
            for (next = 0; next < Math.min(users, userOf.length); next++) {
                userOf[next] = next;
                issuer.issue(next, issuer.start());
            }
            while (next < userOf.length && !stop.getAsBoolean()) {
                wait(POLL_MS);
            }
        }
    }

    /** The request's user sends its next one now, from the thread that saw the request end. */
    @Override
    public synchronized void ended(int request, long nanos) {
        if (next < userOf.length) {
            userOf[next] = userOf[request];
            issuer.issue(next, nanos);
            next++;
            if (next == userOf.length) {
                notifyAll();
            }
        }
    }

    @Override
    public synchronized int[] users(int warmup) {
        return Arrays.copyOfRange(userOf, warmup, userOf.length);
    }

    @Override
    public boolean scheduled() {
        return false;
    }
}
