import org.apache.kafka.coordinator.group.api.streams.assignor.AssignmentConfigs;
import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberMetadataAndStateImpl;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Apache Kafka's broker-side StickyTaskAssignor on one case of bench/INPUTS.md, built
 * exactly as bench/assignors.mjs builds ours (same members, processes, subtopologies, and the
 * same leave / join / replace of the reassignment cases, from Kafka's own initial assignment).
 *
 *   java KafkaAssign MEMBERS SUBTOPOLOGIES PARTITIONS STANDBYS KIND [WARMUP_MS MEASURE_MS [serve]]
 *
 * With "serve" it times nothing by itself: after the warm-up it prints {"ready":true} and
 * then times calls when told, for ours and Kafka's to take turns on the host (the
 * alternated comparison of bench/assignors.mjs): each line "run MS" times calls for MS ms
 * and answers {"runs":N}; "done" (or the end of its input) prints the line below over all
 * calls timed so far, without the cap of 2 000 calls (each side's window is then equal in
 * time).
 *
 * Prints one line of JSON: the median and minimum of the timed assign() (after a warm-up,
 * as a warm broker runs it), the number of timed runs, the collectors' time and the bytes
 * allocated during them, the previous assignment the timed run started from (null for
 * initial) and the timed run's output, in the shape of our package's assign() result, so
 * that bench/assignors.mjs computes the same quality figures on both.
 * K = 1 (one member per process), no reported offsets, no racks, as INPUTS.md's Kafka column.
 */
public final class KafkaAssign {
    private KafkaAssign() {}

    /** Looked up in a map built once, as cheap as Kafka's own TopologyMetadata or cheaper. */
    private record Topology(List<String> subtopologies, Map<String, Integer> index, int partitions)
        implements TopologyDescriber {
        static Topology of(int subtopologies, int partitions) {
            List<String> ids = new ArrayList<>();
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < subtopologies; i++) {
                ids.add("topic-" + i + "_subtopology");
                index.put(ids.get(i), i);
            }
            return new Topology(List.copyOf(ids), Map.copyOf(index), partitions);
        }

        @Override
        public int maxNumInputPartitions(String subtopologyId) {
            at(subtopologyId);
            return partitions;
        }

        @Override
        public boolean isStateful(String subtopologyId) {
            return at(subtopologyId) % 2 == 0;
        }

        private int at(String subtopologyId) {
            Integer i = index.get(subtopologyId);
            if (i == null) throw new NoSuchElementException(subtopologyId);
            return i;
        }
    }

    private record Configs(int numStandbyReplicas) implements AssignmentConfigs {
        @Override
        public List<String> rackAwareAssignmentTags() {
            return List.of();
        }
    }

    private static MemberMetadataAndStateImpl member(
        String processId, Map<String, Set<Integer>> active, Map<String, Set<Integer>> standby) {
        return new MemberMetadataAndStateImpl(
            Optional.empty(), Optional.empty(), processId, Map.of(), active, standby, Map.of(), Map.of(), Map.of());
    }

    private static MemberMetadataAndStateImpl fresh(String processId) {
        return member(processId, Map.of(), Map.of());
    }

    public static void main(String[] args) {
        int members = Integer.parseInt(args[0]);
        int subtopologies = Integer.parseInt(args[1]);
        int partitions = Integer.parseInt(args[2]);
        int standbys = Integer.parseInt(args[3]);
        String kind = args[4];
        long warmupMs = args.length > 5 ? Long.parseLong(args[5]) : 5000;
        long measureMs = args.length > 6 ? Long.parseLong(args[6]) : 5000;

        Topology topology = Topology.of(subtopologies, partitions);
        Configs configs = new Configs(standbys);
        StickyTaskAssignor assignor = new StickyTaskAssignor();

        Map<String, MemberMetadataAndStateImpl> specMembers = new HashMap<>();
        int initialMembers = kind.equals("join") ? members - 1 : members;
        for (int i = 0; i < initialMembers; i++) specMembers.put("member-" + i, fresh("process-" + i));
        GroupAssignment first = null;
        if (!kind.equals("initial")) {
            first = assignor.assign(new GroupSpecImpl(specMembers, configs), topology);
            Map<String, MemberMetadataAndStateImpl> next = new HashMap<>();
            for (Map.Entry<String, MemberAssignment> e : first.members().entrySet()) {
                String processId = specMembers.get(e.getKey()).processId();
                next.put(e.getKey(), member(processId, e.getValue().activeTasks(), e.getValue().standbyTasks()));
            }
            switch (kind) {
                case "leave" -> next.remove("member-" + members / 2);
                case "join" -> next.put("newMember", fresh("process-newMember"));
                case "replace" -> {
                    for (int j = 0; j < members; j++) {
                        if (j % 10 == 3) {
                            next.remove("member-" + j);
                            next.put("fresh-" + j, fresh("process-fresh-" + j));
                        }
                    }
                }
                default -> throw new IllegalArgumentException("kind: initial, leave, join or replace, not " + kind);
            }
            specMembers = next;
        }
        GroupSpecImpl spec = new GroupSpecImpl(specMembers, configs);

        Timer timer = new Timer(assignor, spec, topology);
        timer.warmUp(warmupMs);
        if (args.length > 7 && args[7].equals("serve")) {
            timer.serve();
        } else {
            timer.time(measureMs, 2000);
        }
        timer.print(first);
    }

    /** Calls timed, each result held until the next (as a caller holds its assignment). */
    private static final class Timer {
        private final StickyTaskAssignor assignor;
        private final GroupSpecImpl spec;
        private final Topology topology;
        private final List<Double> samples = new ArrayList<>();
        private GroupAssignment result;
        private long gcMs;
        private long allocated;

        Timer(StickyTaskAssignor assignor, GroupSpecImpl spec, Topology topology) {
            this.assignor = assignor;
            this.spec = spec;
            this.topology = topology;
        }

        void warmUp(long warmupMs) {
            long warmEnd = System.nanoTime() + warmupMs * 1_000_000;
            for (int r = 0; r < 10 || System.nanoTime() < warmEnd; r++) result = assignor.assign(spec, topology);
        }

        /** At least 10 calls (across windows), then calls until `ms` have passed or `max` calls are timed. */
        void time(long ms, int max) {
            long gcBefore = gcMillis();
            long allocatedBefore = allocatedBytes();
            long end = System.nanoTime() + ms * 1_000_000;
            while (samples.size() < 10 || (System.nanoTime() < end && samples.size() < max)) {
                long t = System.nanoTime();
                result = assignor.assign(spec, topology);
                samples.add((System.nanoTime() - t) / 1e6);
            }
            gcMs += gcMillis() - gcBefore;
            allocated += allocatedBytes() - allocatedBefore;
        }

        void serve() {
            System.out.println("{\"ready\":true}");
            System.out.flush();
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
            try {
                for (String line = in.readLine(); line != null && !line.equals("done"); line = in.readLine()) {
                    if (!line.startsWith("run ")) throw new IllegalArgumentException("serve: run MS or done, not " + line);
                    time(Long.parseLong(line.substring(4).trim()), Integer.MAX_VALUE);
                    System.out.println("{\"runs\":" + samples.size() + "}");
                    System.out.flush();
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void print(GroupAssignment first) {
            List<Double> sorted = new ArrayList<>(samples);
            Collections.sort(sorted);
            StringBuilder out = new StringBuilder();
            out.append("{\"medianMs\":").append(sorted.get(sorted.size() / 2))
                .append(",\"minMs\":").append(sorted.get(0))
                .append(",\"runs\":").append(sorted.size())
                .append(",\"gcMs\":").append(gcMs)
                .append(",\"allocatedBytes\":").append(allocated)
                .append(",\"java\":\"").append(System.getProperty("java.version")).append('"')
                .append(",\"first\":");
            assignment(out, first);
            out.append(",\"result\":");
            assignment(out, result);
            out.append('}');
            System.out.println(out);
        }
    }

    /** The collectors' accumulated time (ms), young and old generation: the JVM's side of
     * the "GC per call" column. */
    private static long gcMillis() {
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    /** Bytes this thread has allocated so far (HotSpot's per-thread counter; -1 where the
     * JVM has none): over the timed calls, the Kafka side of the "MB allocated" column. */
    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean hotspot && hotspot.isThreadAllocatedMemorySupported()) {
            return hotspot.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    /** `{ "members": { id: { activeTasks, standbyTasks, warmupTasks } } }`, sorted; ids need no escapes. */
    private static void assignment(StringBuilder out, GroupAssignment a) {
        if (a == null) {
            out.append("null");
            return;
        }
        out.append("{\"members\":{");
        boolean firstMember = true;
        for (Map.Entry<String, MemberAssignment> e : new TreeMap<>(a.members()).entrySet()) {
            if (!firstMember) out.append(',');
            firstMember = false;
            out.append('"').append(e.getKey()).append("\":{\"activeTasks\":");
            tasks(out, e.getValue().activeTasks());
            out.append(",\"standbyTasks\":");
            tasks(out, e.getValue().standbyTasks());
            out.append(",\"warmupTasks\":[]}");
        }
        out.append("}}");
    }

    private static void tasks(StringBuilder out, Map<String, Set<Integer>> tasks) {
        out.append('[');
        boolean firstEntry = true;
        for (Map.Entry<String, Set<Integer>> e : new TreeMap<>(tasks).entrySet()) {
            if (e.getValue().isEmpty()) continue;
            if (!firstEntry) out.append(',');
            firstEntry = false;
            out.append("{\"subtopologyId\":\"").append(e.getKey()).append("\",\"partitions\":[");
            boolean firstPartition = true;
            for (int p : new TreeSet<>(e.getValue())) {
                if (!firstPartition) out.append(',');
                firstPartition = false;
                out.append(p);
            }
            out.append("]}");
        }
        out.append(']');
    }
}
