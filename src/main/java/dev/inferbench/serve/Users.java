package dev.inferbench.serve;

import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The closed loop's arrivals: {@code users} users, each sending its next request the moment its last one ended (its
 * last token, for a streamed response), as GenAI-Perf's {@code --concurrency} and perf_analyzer's concurrency mode
 * do. Every user sends its first request at the step's start. A request's intended start is when its user sent it, so
 * its latency and TTFT count from there, whatever it then waited for a caller or for room in the cache. A closed loop
 * offers no rate of its own: it sends as fast as the service answers, which is why it hides a stall that an open loop
 * shows (each user waits politely); it answers a different question, how a fixed number of users fare.
 */
final class Users implements OpenLoop.Source {
    private static final long POLL_NS = 10_000_000;

    private final int users;
    /** Which user sent each request of the step, by its index. */
    private final int[] userOf;
    /** {user, when it sent}: users whose last request ended, in the order they ended. */
    private final LinkedBlockingQueue<long[]> sent = new LinkedBlockingQueue<>();

    Users(int users, int requests) {
        if (users < 1) {
            throw new IllegalArgumentException("a closed loop needs at least one user, got " + users);
        }
        this.users = users;
        this.userOf = new int[requests];
    }

    @Override
    public long next(int i, long start, BooleanSupplier stop) throws InterruptedException {
        if (i < users) {
            userOf[i] = i;
            OpenLoop.waitUntil(start);
            return start;
        }
        long[] user;
        do {
            user = sent.poll(POLL_NS, TimeUnit.NANOSECONDS);
        } while (user == null && !stop.getAsBoolean());
        if (user == null) {
            return -1;
        }
        userOf[i] = (int) user[0];
        return user[1];
    }

    @Override
    public void ended(int request, long nanos) {
        sent.add(new long[]{userOf[request], nanos});
    }

    @Override
    public int[] users(int warmup) {
        return Arrays.copyOfRange(userOf, warmup, userOf.length);
    }

    @Override
    public boolean scheduled() {
        return false;
    }
}
