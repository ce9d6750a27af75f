// groupwatch test client: Apache Kafka's own Java consumer, driven by the integration tests.
//
// Compiled on demand by tests/fixtures/java-consumer.ts against the jars of `scripts/kafka.sh
// classpath` (3.9.x and 4.x: only APIs present in both are used directly).
//
// Options (all --key=value):
//   --bootstrap=host:port             bootstrap.servers
//   --topics=t1,t2 | --topic-pattern=regex
//   --auto-commit=true|false          enable.auto.commit (default false: commitSync after each non-empty poll)
//   --process-delay-ms=N              block N ms after every poll (to exceed max.poll.interval.ms)
//   --stall-after-ms=X --stall-for-ms=Y  once, X ms after start, block the poll loop for Y ms
//   --poll-ms=N                       poll timeout (default 200)
//   --close-membership=default|leave|remain  close() behaviour (Kafka 4.1+ CloseOptions, by reflection)
//   --exit-on-stdin-eof=true          close and exit when stdin ends (the parent test runner died)
//   --<any.consumer.config>=value     passed to KafkaConsumer as is (group.id, client.id,
//                                     group.instance.id, group.protocol, session.timeout.ms,
//                                     heartbeat.interval.ms, max.poll.interval.ms,
//                                     partition.assignment.strategy, group.remote.assignor, ...)
// Stdin commands, one per line: `subscribe t1,t2`, `subscribe-pattern regex`, `unsubscribe`.
//
// Stdout: one JSON object per line, flushed: started, subscribed, assigned, revoked, lost,
// polled (at most once a second), committed, stall-start, stall-end, error, closed.
// SIGTERM: a shutdown hook calls wakeup(); the poll thread then close()s the consumer (LeaveGroup)
// and prints "closed". SIGKILL simulates a crash.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class GwConsumer {
  private static final Object OUT_LOCK = new Object();

  private final Map<String, String> opts;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final CountDownLatch shutdown = new CountDownLatch(1);
  private final CountDownLatch done = new CountDownLatch(1);
  private final AtomicReference<String> pendingCommand = new AtomicReference<>();
  private final long startedAt = System.currentTimeMillis();
  private volatile boolean closing = false;
  private volatile boolean inShutdownHook = false;

  private GwConsumer(Map<String, String> opts, Properties props) {
    this.opts = opts;
    this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  // ------------------------------------------------------------------ JSON output

  static String quote(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** extra: pre-rendered JSON members, e.g. "\"count\":3". */
  static void emit(String event, String... extra) {
    StringBuilder b = new StringBuilder("{\"event\":").append(quote(event));
    b.append(",\"ts\":").append(System.currentTimeMillis());
    for (String e : extra) if (e != null && !e.isEmpty()) b.append(',').append(e);
    b.append('}');
    synchronized (OUT_LOCK) {
      System.out.println(b);
      System.out.flush();
    }
  }

  static String field(String name, String rawJson) {
    return quote(name) + ":" + rawJson;
  }

  static String partitionsJson(Collection<TopicPartition> parts) {
    List<TopicPartition> sorted = new ArrayList<>(parts);
    sorted.sort((a, b) -> a.topic().equals(b.topic())
        ? Integer.compare(a.partition(), b.partition())
        : a.topic().compareTo(b.topic()));
    StringBuilder b = new StringBuilder("[");
    for (TopicPartition tp : sorted) {
      if (b.length() > 1) b.append(',');
      b.append("{\"topic\":").append(quote(tp.topic())).append(",\"partition\":").append(tp.partition()).append('}');
    }
    return b.append(']').toString();
  }

  static String stringsJson(Collection<String> items) {
    StringBuilder b = new StringBuilder("[");
    for (String s : items) {
      if (b.length() > 1) b.append(',');
      b.append(quote(s));
    }
    return b.append(']').toString();
  }

  static String errorMessage(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  // ------------------------------------------------------------------ group callbacks

  /** memberId/generation as the client sees them (inside a callback, on the poll thread). */
  private String membershipJson() {
    try {
      ConsumerGroupMetadata m = consumer.groupMetadata();
      return field("memberId", quote(m.memberId())) + "," + field("generationId", String.valueOf(m.generationId()))
          + "," + field("groupInstanceId", quote(m.groupInstanceId().orElse(null)));
    } catch (RuntimeException e) {
      return "";
    }
  }

  private final ConsumerRebalanceListener listener = new ConsumerRebalanceListener() {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      emit("revoked", field("partitions", partitionsJson(partitions)), membershipJson());
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      emit("assigned", field("partitions", partitionsJson(partitions)),
          field("assignment", partitionsJson(consumer.assignment())), membershipJson());
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      emit("lost", field("partitions", partitionsJson(partitions)), membershipJson());
    }
  };

  // ------------------------------------------------------------------ subscription

  private void subscribeTopics(String csv) {
    List<String> topics = new ArrayList<>();
    for (String t : csv.split(",")) if (!t.trim().isEmpty()) topics.add(t.trim());
    consumer.subscribe(topics, listener);
    emit("subscribed", field("topics", stringsJson(topics)));
  }

  private void subscribePattern(String regex) {
    consumer.subscribe(Pattern.compile(regex), listener);
    emit("subscribed", field("pattern", quote(regex)));
  }

  private void applyCommand(String line) {
    String cmd = line.trim();
    try {
      if (cmd.startsWith("subscribe-pattern ")) {
        subscribePattern(cmd.substring("subscribe-pattern ".length()).trim());
      } else if (cmd.startsWith("subscribe ")) {
        subscribeTopics(cmd.substring("subscribe ".length()));
      } else if (cmd.equals("unsubscribe")) {
        consumer.unsubscribe();
        emit("unsubscribed");
      } else {
        emit("error", field("message", quote("unknown command: " + cmd)));
      }
    } catch (RuntimeException e) {
      emit("error", field("message", quote(errorMessage(e))));
    }
  }

  private void startStdinReader() {
    Thread t = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.trim().isEmpty()) continue;
          // The consumer is single-threaded: hand the command to the poll thread and wait for it.
          while (!closing && !pendingCommand.compareAndSet(null, line)) Thread.sleep(20);
        }
      } catch (Exception e) {
        // stdin unreadable: commands are optional
      }
      // EOF: the parent (a test runner) is gone; with --exit-on-stdin-eof=true do not linger.
      if (Boolean.parseBoolean(opts.getOrDefault("exit-on-stdin-eof", "false"))) {
        emit("stdin-closed");
        requestShutdown();
      }
    }, "gw-stdin");
    t.setDaemon(true);
    t.start();
  }

  /** From any thread: stop the poll loop; the poll thread then closes the consumer. */
  private void requestShutdown() {
    closing = true;
    shutdown.countDown();
    try {
      consumer.wakeup();
    } catch (RuntimeException e) {
      // already closed
    }
  }

  // ------------------------------------------------------------------ main loop

  /** Blocks for ms unless shutdown is requested (no thread interrupts: close() must still work). */
  private void pause(long ms) throws InterruptedException {
    if (ms > 0) shutdown.await(ms, TimeUnit.MILLISECONDS);
  }

  private long longOpt(String key, long dflt) {
    String v = opts.get(key);
    return v == null || v.isEmpty() ? dflt : Long.parseLong(v);
  }

  private int run() {
    long pollMs = longOpt("poll-ms", 200);
    long processDelayMs = longOpt("process-delay-ms", 0);
    long stallAfterMs = longOpt("stall-after-ms", -1);
    long stallForMs = longOpt("stall-for-ms", 0);
    boolean stalled = false;
    boolean autoCommit = Boolean.parseBoolean(opts.getOrDefault("auto-commit", "false"));
    long polledSince = System.currentTimeMillis();
    long polledCount = 0;
    long polledTotal = 0;
    int exitCode = 0;

    try {
      if (opts.containsKey("topic-pattern")) subscribePattern(opts.get("topic-pattern"));
      else if (opts.containsKey("topics")) subscribeTopics(opts.get("topics"));
      startStdinReader();

      while (!closing) {
        String cmd = pendingCommand.getAndSet(null);
        if (cmd != null) applyCommand(cmd);
        if (consumer.subscription().isEmpty()) {
          pause(pollMs);
          continue;
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(pollMs));
        polledCount += records.count();
        polledTotal += records.count();
        long now = System.currentTimeMillis();
        if (polledCount > 0 && now - polledSince >= 1000) {
          emit("polled", field("count", String.valueOf(polledCount)), field("total", String.valueOf(polledTotal)));
          polledCount = 0;
          polledSince = now;
        }
        if (!records.isEmpty() && !autoCommit) {
          Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
          for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> rs = records.records(tp);
            long last = rs.get(rs.size() - 1).offset();
            offsets.put(tp, new OffsetAndMetadata(last + 1));
          }
          try {
            consumer.commitSync(offsets);
            StringBuilder b = new StringBuilder("[");
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
              if (b.length() > 1) b.append(',');
              b.append("{\"topic\":").append(quote(e.getKey().topic())).append(",\"partition\":")
                  .append(e.getKey().partition()).append(",\"offset\":").append(e.getValue().offset()).append('}');
            }
            emit("committed", field("offsets", b.append(']').toString()));
          } catch (WakeupException e) {
            throw e;
          } catch (KafkaException e) {
            // CommitFailedException after a poll timeout, RebalanceInProgressException, ...
            emit("error", field("message", quote(errorMessage(e))), field("during", quote("commit")));
          }
        }
        if (processDelayMs > 0) pause(processDelayMs);
        if (!stalled && stallAfterMs >= 0 && now - startedAt >= stallAfterMs) {
          stalled = true;
          emit("stall-start", field("ms", String.valueOf(stallForMs)));
          pause(stallForMs);
          emit("stall-end");
        }
      }
    } catch (WakeupException e) {
      if (!closing) {
        emit("error", field("message", quote(errorMessage(e))));
        exitCode = 1;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      emit("error", field("message", quote(errorMessage(e))), field("fatal", "true"));
      exitCode = 1;
    } finally {
      try {
        close();
      } catch (Exception e) {
        emit("error", field("message", quote(errorMessage(e))), field("during", quote("close")));
      }
      emit("closed");
      done.countDown();
    }
    return exitCode;
  }

  /** close(); with --close-membership=leave|remain use Kafka 4.1+ CloseOptions (KIP-1092) by reflection. */
  private void close() throws Exception {
    String membership = opts.getOrDefault("close-membership", "default");
    if (membership.equals("default")) {
      consumer.close(); // waits up to 30 s (default.api.timeout) for commits and LeaveGroup
      return;
    }
    Class<?> closeOptions = Class.forName("org.apache.kafka.clients.consumer.CloseOptions");
    Class<?> op = Class.forName("org.apache.kafka.clients.consumer.CloseOptions$GroupMembershipOperation");
    Object value = null;
    for (Object c : op.getEnumConstants()) {
      String name = c.toString();
      if (membership.equals("leave") && name.equals("LEAVE_GROUP")) value = c;
      if (membership.equals("remain") && name.equals("REMAIN_IN_GROUP")) value = c;
    }
    if (value == null) throw new IllegalArgumentException("close-membership: " + membership);
    Object options = closeOptions.getMethod("groupMembershipOperation", op).invoke(null, value);
    options = closeOptions.getMethod("withTimeout", Duration.class).invoke(options, Duration.ofSeconds(10));
    Method close = KafkaConsumer.class.getMethod("close", closeOptions);
    close.invoke(consumer, options);
  }

  // ------------------------------------------------------------------ entry point

  private static final Map<String, String> ASSIGNORS = Map.of(
      "range", "org.apache.kafka.clients.consumer.RangeAssignor",
      "roundrobin", "org.apache.kafka.clients.consumer.RoundRobinAssignor",
      "sticky", "org.apache.kafka.clients.consumer.StickyAssignor",
      "cooperative-sticky", "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");

  private static final List<String> OWN_OPTIONS = Arrays.asList(
      "bootstrap", "topics", "topic-pattern", "auto-commit", "process-delay-ms", "stall-after-ms",
      "stall-for-ms", "poll-ms", "close-membership", "exit-on-stdin-eof");

  /** Version of kafka-clients on the classpath (its kafka/kafka-version.properties resource). */
  static String clientVersion() {
    try (java.io.InputStream in = KafkaConsumer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
      Properties p = new Properties();
      if (in != null) p.load(in);
      return p.getProperty("version", "unknown");
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  public static void main(String[] args) {
    Map<String, String> opts = new HashMap<>();
    for (String a : args) {
      if (!a.startsWith("--") || !a.contains("=")) {
        emit("error", field("message", quote("bad argument (want --key=value): " + a)), field("fatal", "true"));
        System.exit(2);
      }
      int eq = a.indexOf('=');
      opts.put(a.substring(2, eq), a.substring(eq + 1));
    }
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, opts.getOrDefault("bootstrap", "127.0.0.1:9092"));
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, opts.getOrDefault("auto-commit", "false"));
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "gw-java-consumer");
    for (Map.Entry<String, String> e : opts.entrySet()) {
      if (!OWN_OPTIONS.contains(e.getKey())) props.put(e.getKey(), e.getValue());
    }
    String strategy = props.getProperty(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
    if (strategy != null) {
      // Short names as in the broker's describe output: range, roundrobin, sticky, cooperative-sticky.
      List<String> classes = new ArrayList<>();
      for (String s : strategy.split(",")) {
        String name = s.trim();
        String cls = ASSIGNORS.get(name);
        classes.add(cls != null ? cls : name);
      }
      props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, String.join(",", classes));
    }

    GwConsumer app;
    try {
      app = new GwConsumer(opts, props);
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      emit("error", field("message", quote(errorMessage(e) + " / " + errorMessage(cause))), field("fatal", "true"));
      System.exit(2);
      return;
    }

    Thread pollThread = Thread.currentThread();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      app.inShutdownHook = true;
      app.requestShutdown();
      try {
        // The JVM exits when the hooks return: wait for the poll thread to close the consumer.
        app.done.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "gw-shutdown"));

    emit("started", field("groupId", quote(props.getProperty(ConsumerConfig.GROUP_ID_CONFIG))),
        field("clientId", quote(props.getProperty(ConsumerConfig.CLIENT_ID_CONFIG))),
        field("kafkaClientVersion", quote(clientVersion())),
        field("pid", String.valueOf(ProcessHandle.current().pid())),
        field("thread", quote(pollThread.getName())));
    int code = app.run();
    // System.exit from inside JVM shutdown (SIGTERM) would block: just return then.
    if (!app.inShutdownHook) System.exit(code);
  }
}
