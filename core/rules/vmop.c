/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmop.c — long-vm-operation (rules_internal.h): a stop whose time went into a
 * VM operation that is not a collection (a heap dump, a class histogram, a
 * class redefinition, a thread dump...), named by the safepoint log. Also the
 * one table of HotSpot's VM operations that the rules read (rl_vmop_find).
 *
 * The operation names are HotSpot's own: the VM_OPS_DO list of
 *   JDK 8   hotspot/src/share/vm/runtime/vm_operations.hpp (jdk8u)
 *   JDK 11  src/hotspot/share/runtime/vmOperations.hpp     (openjdk/jdk11u 40e582d35f03)
 *   JDK 17  src/hotspot/share/runtime/vmOperation.hpp      (jdk17u of 17 GA, as corretto-17;
 *           later 17.0.x updates name G1's Remark/Cleanup as JDK 21 does)
 *   JDK 21  src/hotspot/share/runtime/vmOperation.hpp      (jdk21u, microsoft/openjdk-jdk21u)
 * Each row says in which of those lists the name is (VMOP_J*); a name in none
 * (a newer JDK, a vendor's build) is judged by its prefix (vmop_gc_prefix). The
 * name is what the safepoint log prints: JDK 17+ `Safepoint "HeapDumper", ...`,
 * JDK 9-16 `Entering safepoint region: HeapDumper`, JDK 8
 * -XX:+PrintSafepointStatistics' vmop column (FORMATS.md). */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

#define VMOP_J8  0x01
#define VMOP_J11 0x02
#define VMOP_J17 0x04
#define VMOP_J21 0x08
#define VMOP_ALL (VMOP_J8 | VMOP_J11 | VMOP_J17 | VMOP_J21)

/* what runs it and what to do: shared by the rows of one family */
static const char jvmti_what[] = "a JVMTI call from an agent or a debugger (JDWP: an IDE attached, a profiler)";
static const char jvmti_do[] =
	"Find the agent: -agentlib/-agentpath/-javaagent on the command line (jcmd PID VM.command_line), or one "
	"loaded later (jcmd JVMTI.agent_load, a profiler attached); a debugger attached to a production JVM "
	"(-agentlib:jdwp) stops it for every breakpoint, step and stack it asks for. Detach it or make it sample "
	"less.";
static const char jcmd_do[] =
	"Find who runs it (a monitoring script, a support tool, an operator) and run it against an instance out "
	"of traffic; its time grows with what it walks.";
static const char debug_do[] =
	"A diagnostic or test operation: look for -XX diagnostic flags (jcmd PID VM.flags -all) that a "
	"production JVM should not have.";
static const char gc_what[] = "a garbage collection";

static const struct vmop_info vmop_table[] = {
	/* collections: their stops are long-gc-pause's (the GC log says which) */
	{"CollectForMetadataAllocation", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"CollectForCodeCacheAllocation", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"GenCollectFull", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"GenCollectFullConcurrent", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_GC, gc_what, NULL},
	{"GenCollectForAllocation", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"ParallelGCFailedAllocation", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"ParallelGCSystemGC", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"CGC_Operation", VMOP_J8 | VMOP_J11, VMOP_GC, gc_what, NULL},
	{"CMS_Initial_Mark", VMOP_J8 | VMOP_J11, VMOP_GC, gc_what, NULL},
	{"CMS_Final_Remark", VMOP_J8 | VMOP_J11, VMOP_GC, gc_what, NULL},
	{"G1CollectFull", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"G1CollectForAllocation", VMOP_ALL, VMOP_GC, gc_what, NULL},
	{"G1IncCollectionPause", VMOP_J8, VMOP_GC, gc_what, NULL},
	{"DestroyAllocationContext", VMOP_J8, VMOP_GC, gc_what, NULL},
	{"G1Concurrent", VMOP_J17, VMOP_GC, gc_what, NULL},
	/* jdk17u's later updates renamed G1Concurrent so: 17.0.21 logs them
	 * (tests/recordings/vmop-redefine/gc.log) */
	{"G1PauseRemark", VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"G1PauseCleanup", VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"G1ShrinkHeap", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"G1TryInitiateConcMark", VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZOperation", VMOP_J11, VMOP_GC, gc_what, NULL},
	{"ZMarkStart", VMOP_J17, VMOP_GC, gc_what, NULL},
	{"ZMarkEnd", VMOP_J17, VMOP_GC, gc_what, NULL},
	{"ZRelocateStart", VMOP_J17, VMOP_GC, gc_what, NULL},
	{"ZVerify", VMOP_J17, VMOP_GC, gc_what, NULL},
	{"ZMarkEndOld", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZMarkEndYoung", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZMarkFlushOperation", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZMarkStartYoung", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZMarkStartYoungAndOld", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZRelocateStartOld", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZRelocateStartYoung", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZRendezvousGCThreads", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ZVerifyOld", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"XMarkStart", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"XMarkEnd", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"XRelocateStart", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"XVerify", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"RendezvousGCThreads", VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahFullGC", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahInitMark", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahFinalMarkStartEvac", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahInitUpdateRefs", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahFinalUpdateRefs", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahFinalRoots", VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},
	{"ShenandoahDegeneratedGC", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_GC, gc_what, NULL},

	/* tools and the JVM's own work: long-vm-operation's */
	{"HeapDumper", VMOP_ALL, VMOP_MAY_GC,
	 "a heap dump (-XX:+HeapDumpOnOutOfMemoryError, jcmd GC.heap_dump, jmap -dump, "
	 "HotSpotDiagnosticMXBean)",
	 "The whole heap is written to a file while every thread is stopped, so the stop is the heap's size over "
	 "the disk's write speed: point -XX:HeapDumpPath at fast local storage with room for the heap (not a "
	 "network volume), and dump on demand only an instance out of traffic. A dump after an OutOfMemoryError "
	 "(-XX:+HeapDumpOnOutOfMemoryError) stops the JVM this long every time it runs out of memory: keep it for "
	 "the one dump you need, and fix the memory first."},
	{"GC_HeapInspection", VMOP_ALL, VMOP_MAY_GC,
	 "a class histogram (jmap -histo, jcmd GC.class_histogram, SIGQUIT with -XX:+PrintClassHistogram)",
	 "It walks every object of the heap while every thread is stopped. Find who runs it (a monitoring "
	 "script, a support tool, an operator) and run it against an instance out of traffic. With :live "
	 "(jmap -histo:live; jcmd GC.class_histogram without -all) it first forces a Full GC that "
	 "-XX:+ExplicitGCInvokesConcurrent and -XX:+DisableExplicitGC do not prevent: `jmap -histo PID` "
	 "(JDK 9+: -histo:all) or `jcmd PID GC.class_histogram -all` skip it."},
	{"RedefineClasses", VMOP_ALL, VMOP_OTHER,
	 "class redefinition by an agent (Instrumentation.redefineClasses/retransformClasses, JVMTI "
	 "RedefineClasses, a debugger's hot swap)",
	 "An agent (an APM or tracing agent instrumenting at run time, a hot-reload tool, a debugger's hot swap) "
	 "redefined classes while every thread was stopped; the stop grows with the classes redefined in one "
	 "call and the compiled code that depends on them. Find it: -javaagent/-agentpath on the command line "
	 "(jcmd PID VM.command_line), or one attached later (jcmd JVMTI.agent_load, VirtualMachine.loadAgent); "
	 "have it transform classes as they load (a ClassFileTransformer at start-up) rather than redefine "
	 "many at once under load."},
	{"ThreadDump", VMOP_ALL, VMOP_OTHER,
	 "a thread dump (ThreadMXBean.dumpAllThreads/getThreadInfo, Thread.getAllStackTraces: monitoring "
	 "agents, JMX consoles)",
	 "Every thread's stack is walked while every thread is stopped: the stop grows with the number of "
	 "threads and their stack depth. Find the poller (a monitoring agent, a JMX console, a watchdog) and "
	 "make it ask less often, for fewer threads or a smaller depth; thousands of threads make every dump "
	 "long."},
	{"PrintThreads", VMOP_ALL, VMOP_OTHER,
	 "a thread dump (jstack, jcmd Thread.print, kill -3)",
	 "Every thread's stack is printed while every thread is stopped: the stop grows with the number of "
	 "threads and their stack depth (and with -l, the locks). Find who runs jstack / jcmd Thread.print / "
	 "kill -3 (a watchdog, a support script) and make it run less often; with thousands of threads, each "
	 "dump stops the JVM this long."},
	{"FindDeadlocks", VMOP_ALL, VMOP_OTHER,
	 "a deadlock search (ThreadMXBean.findDeadlockedThreads, jstack, jcmd Thread.print)",
	 "Find the caller (a monitoring agent polling for deadlocks, jstack) and make it poll less often."},
	{"ThreadStop", VMOP_J8 | VMOP_J11, VMOP_OTHER, "Thread.stop() on another thread",
	 "Thread.stop() is deprecated: find its caller and replace it with interruption."},
	{"ThreadSuspend", VMOP_J11 | VMOP_J17, VMOP_OTHER, "Thread.suspend() or JVMTI SuspendThread (a debugger)",
	 jvmti_do},
	{"ThreadsSuspendJVMTI", VMOP_J11 | VMOP_J17, VMOP_OTHER, "JVMTI SuspendThreadList (a debugger suspending threads)",
	 jvmti_do},
	{"Deoptimize", VMOP_J8 | VMOP_J11, VMOP_OTHER,
	 "deoptimization: compiled code thrown away because a class loaded or redefined broke what the JIT assumed",
	 "Usually class loading late in the run (a new subclass or implementation breaks the JIT's assumptions) "
	 "or an agent redefining classes: -Xlog:class+load (JDK 8: -verbose:class) around the stop shows which "
	 "classes came; load them at start-up."},
	{"DeoptimizeFrame", VMOP_ALL, VMOP_OTHER, "deoptimization of one compiled frame",
	 "Deoptimization: look for class loading or an agent redefining classes around the stop "
	 "(-Xlog:class+load, -Xlog:deoptimization=debug on JDK 17+)."},
	{"DeoptimizeAll", VMOP_ALL, VMOP_OTHER, "deoptimization of all compiled code (a diagnostic flag)", debug_do},
	{"DeoptimizeTheWorld", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER,
	 "deoptimization of all compiled code (a JVMTI capability turned on by an agent, or a redefinition)",
	 jvmti_do},
	{"ZombieAll", VMOP_ALL, VMOP_OTHER, "marking all compiled code dead (a diagnostic flag)", debug_do},
	{"EnableBiasedLocking", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER,
	 "biased locking turned on after -XX:BiasedLockingStartupDelay (JDK 8-14 by default)",
	 "Biased locking is on by default on JDK 8-14 (JEP 374 turned it off in JDK 15): -XX:-UseBiasedLocking "
	 "removes this and every revocation stop."},
	{"RevokeBias", VMOP_J8 | VMOP_J11, VMOP_OTHER,
	 "biased-lock revocation: a lock biased to one thread taken by another (JDK 8-14 by default)",
	 "Biased locking (on by default on JDK 8-14, off since JDK 15 by JEP 374) stops the JVM to revoke a "
	 "bias whenever a lock changes owner thread: on a server where locks are shared, -XX:-UseBiasedLocking "
	 "removes these stops."},
	{"BulkRevokeBias", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER,
	 "bulk biased-lock revocation for a whole class (JDK 8-14 by default)",
	 "Biased locking (on by default on JDK 8-14, off since JDK 15 by JEP 374) revokes the biases of every "
	 "object of a class at once when its locks keep changing owner: -XX:-UseBiasedLocking removes these "
	 "stops."},
	{"ReportJavaOutOfMemory", VMOP_ALL, VMOP_OTHER,
	 "reporting an OutOfMemoryError: the -XX:OnOutOfMemoryError commands run while the JVM is stopped",
	 "The JVM ran out of memory and ran the -XX:OnOutOfMemoryError commands at a safepoint: keep those "
	 "commands short (a kill, not a script that collects data), and fix the memory."},
	{"HeapWalkOperation", VMOP_ALL, VMOP_OTHER,
	 "a JVMTI heap walk (FollowReferences: a memory profiler or agent following every reference)", jvmti_do},
	{"HeapIterateOperation", VMOP_ALL, VMOP_OTHER,
	 "a JVMTI heap iteration (IterateThroughHeap: a memory profiler or agent visiting every object)", jvmti_do},
	{"GetOwnedMonitorInfo", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetObjectMonitorUsage", VMOP_ALL, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetCurrentContendedMonitor", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetStackTrace", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetMultipleStackTraces", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetAllStackTraces", VMOP_ALL, VMOP_OTHER, "JVMTI GetAllStackTraces (a sampling profiler or agent)", jvmti_do},
	{"GetThreadListStackTraces", VMOP_ALL, VMOP_OTHER,
	 "JVMTI GetThreadListStackTraces (a sampling profiler or agent)", jvmti_do},
	{"GetFrameCount", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetFrameLocation", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"ChangeBreakpoints", VMOP_ALL, VMOP_OTHER, "a debugger setting or clearing breakpoints", jvmti_do},
	{"GetOrSetLocal", VMOP_ALL, VMOP_OTHER, jvmti_what, jvmti_do},
	{"GetCurrentLocation", VMOP_J8 | VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"EnterInterpOnlyMode", VMOP_J8 | VMOP_J11, VMOP_OTHER, "a debugger single-stepping or watching frames", jvmti_do},
	{"ChangeSingleStep", VMOP_ALL, VMOP_OTHER, "a debugger single-stepping", jvmti_do},
	{"UpdateForPopTopFrame", VMOP_J11, VMOP_OTHER, "a debugger popping a frame", jvmti_do},
	{"SetFramePop", VMOP_J11, VMOP_OTHER, jvmti_what, jvmti_do},
	{"VirtualThreadGetStackTrace", VMOP_J21, VMOP_OTHER, jvmti_what, jvmti_do},
	{"VirtualThreadGetFrameCount", VMOP_J21, VMOP_OTHER, jvmti_what, jvmti_do},
	{"VirtualThreadGetOrSetLocal", VMOP_J21, VMOP_OTHER, jvmti_what, jvmti_do},
	{"VirtualThreadGetCurrentLocation", VMOP_J21, VMOP_OTHER, jvmti_what, jvmti_do},
	{"SetNotifyJvmtiEventsMode", VMOP_J21, VMOP_OTHER, jvmti_what, jvmti_do},
	{"JvmtiPostObjectFree", VMOP_J17 | VMOP_J21, VMOP_OTHER,
	 "JVMTI ObjectFree events (an agent tagging objects)", jvmti_do},
	{"JNIFunctionTableCopier", VMOP_ALL, VMOP_OTHER, "an agent replacing the JNI function table", jvmti_do},
	{"JFRCheckpoint", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER, "Java Flight Recorder writing a chunk",
	 "A flight recording (-XX:StartFlightRecording, jcmd JFR.start/JFR.dump) wrote its data at a "
	 "safepoint: a recording with many threads or stack traces makes it longer; lower its settings or "
	 "dump less often."},
	{"JFRSafepointClear", VMOP_J21, VMOP_OTHER, "Java Flight Recorder rotating a chunk",
	 "A flight recording (-XX:StartFlightRecording, jcmd JFR.start/JFR.dump) rotated its data at a "
	 "safepoint: dump less often."},
	{"JFRSafepointWrite", VMOP_J21, VMOP_OTHER, "Java Flight Recorder writing a chunk",
	 "A flight recording (-XX:StartFlightRecording, jcmd JFR.start/JFR.dump) wrote its data at a "
	 "safepoint: dump less often."},
	{"JFROldObject", VMOP_ALL, VMOP_OTHER,
	 "Java Flight Recorder's old object sample walking paths to GC roots (JFR.dump path-to-gc-roots=true)",
	 "A flight recording dumped with path-to-gc-roots walks the heap from its roots while the JVM is "
	 "stopped: leave it off on a loaded instance."},
	{"PopulateDumpSharedSpace", VMOP_ALL, VMOP_OTHER, "writing a CDS archive (-Xshare:dump, jcmd VM.cds)",
	 jcmd_do},
	{"ClassLoaderStatsOperation", VMOP_ALL, VMOP_OTHER, "jcmd VM.classloader_stats", jcmd_do},
	{"ClassLoaderHierarchyOperation", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "jcmd VM.classloaders", jcmd_do},
	{"DumpHashtable", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "jcmd VM.symboltable / VM.stringtable", jcmd_do},
	{"DumpTouchedMethods", VMOP_J11 | VMOP_J17, VMOP_OTHER, "jcmd VM.print_touched_methods", jcmd_do},
	{"PrintCompileQueue", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "jcmd Compiler.queue", jcmd_do},
	{"PrintClassHierarchy", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "jcmd VM.class_hierarchy", jcmd_do},
	{"PrintClasses", VMOP_J21, VMOP_OTHER, "jcmd VM.classes", jcmd_do},
	{"PrintMetadata", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "jcmd VM.metaspace", jcmd_do},
	{"PrintJNI", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER, "printing JNI global references (jstack)", jcmd_do},
	{"RotateGCLog", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER,
	 "GC log rotation (JDK 8 -XX:+UseGCLogFileRotation, jcmd GC.rotate_log)",
	 "Rotating the GC log happens at a safepoint: a log on slow storage makes it long; write it to local "
	 "disk."},
	{"UnlinkSymbols", VMOP_J8 | VMOP_J11, VMOP_OTHER, "cleaning the symbol table", NULL},
	{"CleanClassLoaderDataMetaspaces", VMOP_J17 | VMOP_J21, VMOP_OTHER,
	 "cleaning metaspace after classes were unloaded", NULL},
	{"ClearICs", VMOP_ALL & ~VMOP_J8, VMOP_OTHER, "clearing the JIT's inline caches", NULL},
	{"ICBufferFull", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "the JIT's inline cache buffer ran full", NULL},
	{"MarkActiveNMethods", VMOP_J11, VMOP_OTHER, "the code cache sweeper marking compiled code in use", NULL},
	{"ScavengeMonitors", VMOP_J11 | VMOP_J17, VMOP_OTHER, "deflating idle inflated monitors", NULL},
	{"Cleanup", VMOP_J17 | VMOP_J21, VMOP_OTHER,
	 "a cleanup safepoint (the JVM's periodic one, -XX:GuaranteedSafepointInterval)", NULL},
	{"ForceSafepoint", VMOP_ALL, VMOP_OTHER, "a safepoint forced with nothing to do", NULL},
	{"ForceAsyncSafepoint", VMOP_J8 | VMOP_J11 | VMOP_J17, VMOP_OTHER, "a safepoint forced with nothing to do", NULL},
	{"HandshakeOneThread", VMOP_J11 | VMOP_J17, VMOP_OTHER, "a handshake with one thread done as a safepoint", NULL},
	{"HandshakeAllThreads", VMOP_ALL & ~VMOP_J8, VMOP_OTHER, "a handshake with every thread done as a safepoint", NULL},
	{"HandshakeFallback", VMOP_J11 | VMOP_J17, VMOP_OTHER, "a handshake done as a safepoint", NULL},
	{"Exit", VMOP_ALL, VMOP_OTHER, "the JVM exiting (System.exit, a signal, the last thread ending)", NULL},
	{"LinuxDllLoad", VMOP_ALL, VMOP_OTHER,
	 "loading a native library that asks for an executable stack (the JVM re-protects every thread's "
	 "stack guard pages)",
	 "A native library (System.loadLibrary) was built with an executable stack: clear the flag "
	 "(execstack -c LIB) so the JVM need not stop."},
	{"Verify", VMOP_ALL, VMOP_OTHER, "heap verification (-XX:+VerifyBeforeGC / VerifyAfterGC)", debug_do},
	{"WhiteBoxOperation", VMOP_ALL, VMOP_OTHER, "the WhiteBox test API", debug_do},
	{"JVMCIResizeCounters", VMOP_J17 | VMOP_J21, VMOP_OTHER, "JVMCI (Graal) resizing its counters", NULL},
	{"CTWThreshold", VMOP_J11, VMOP_OTHER, "compile-the-world testing", debug_do},
	{"GTestExecuteAtSafepoint", VMOP_J11 | VMOP_J17 | VMOP_J21, VMOP_OTHER, "a HotSpot unit test", debug_do},
	{"GTestStopSafepoint", VMOP_J21, VMOP_OTHER, "a HotSpot unit test", debug_do},
	{"Dummy", VMOP_J8 | VMOP_J11, VMOP_OTHER, "an empty operation", NULL},
	{"None", VMOP_J17, VMOP_OTHER, "an empty operation", NULL},
	{"Halt", VMOP_J21, VMOP_OTHER, "halting the VM thread (the JVM exiting)", NULL},
	{"SafepointALot", VMOP_J21, VMOP_OTHER, "a test flag's safepoint (-XX:+SafepointALot)", debug_do},
};

const struct vmop_info *rl_vmop_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(vmop_table); i++)
		if (strcmp(vmop_table[i].name, name) == 0)
			return &vmop_table[i];
	return NULL;
}

/* A name in no list above: the collectors' operations of every release start
 * so (VM_OPS_DO of JDK 8-21; ZGC, Shenandoah and G1 keep their prefixes). */
static bool vmop_gc_prefix(const char *name)
{
	static const char *const gc[] = {"G1", "Z", "X", "Shenandoah", "Gen", "Parallel", "CMS", "CGC_",
					 "CollectFor", "Epsilon"};
	for (size_t i = 0; i < ARRAY_LEN(gc); i++)
		if (strncmp(name, gc[i], strlen(gc[i])) == 0)
			return true;
	return false;
}

bool rl_vmop_is_gc(const char *name)
{
	if (strcmp(name, TL_OPEN_PAUSE_OP) == 0)
		return true; /* stwtop's own stop for a pause that never ended */
	const struct vmop_info *v = rl_vmop_find(name);
	return v ? v->kind == VMOP_GC : vmop_gc_prefix(name);
}

/* Not this rule's: no name (JDK 8 -XX:+PrintGCApplicationStoppedTime, the
 * counters), JDK 8's "no vm operation" (a guaranteed safepoint), a collection. */
static bool vmop_named(const char *op)
{
	return op[0] && strcmp(op, "no vm operation") != 0 && !rl_vmop_is_gc(op);
}

double rl_stop_gc_ms(const struct timeline *tl, const struct tl_stop *s, const struct tl_pause **longest)
{
	double sum = 0;
	struct tl_stop_iter it;
	struct tl_stopref p;
	*longest = NULL;
	/* a pause inside the stop, to the log's millisecond (a stop's start is
	 * its end minus its length, rounded) */
	timeline_pauses_begin(&it, tl, s->start_ms, s->end_ms, 0);
	while (timeline_stops_next(&it, &p)) {
		if (p.start_ms < s->start_ms - 1 || p.end_ms > s->end_ms + 1)
			continue;
		sum += p.total_ms;
		if (!*longest || p.pause->dur_ms > (*longest)->dur_ms)
			*longest = p.pause;
	}
	return sum;
}

bool rl_pause_is_vmop_part(const struct rules *r, const struct timeline *tl, const struct tl_pause *p)
{
	if (timeline_stops_are_pauses(tl))
		return false;
	int64_t ps = p->t_ms - (int64_t)(p->dur_ms + 0.5);
	struct tl_stop_iter it;
	struct tl_stopref sr;
	timeline_stops_begin(&it, tl, ps, p->t_ms, p->dur_ms);
	while (timeline_stops_next(&it, &sr)) {
		const struct tl_stop *s = sr.stop;
		if (!s || ps < s->start_ms - 1 || p->t_ms > s->end_ms + 1 || !vmop_named(s->op))
			continue;
		const struct tl_pause *lp;
		if (rl_stop_gc_ms(tl, s, &lp) < r->cfg.vmop_gc_share * s->total_ms)
			return true;
	}
	return false;
}

/* the part of the stop the operation itself took: at the safepoint when the
 * log says (JDK 17+), else the whole stop less reaching it */
static double op_part(const struct tl_stop *s)
{
	if (s->op_ms >= 0)
		return s->op_ms;
	return s->ttsp_ms >= 0 ? s->total_ms - s->ttsp_ms : s->total_ms;
}

/* A stop is this rule's when its operation is named and is no collection, and
 * the operation, not reaching the safepoint, took the time: its own part is the
 * larger one (where reaching the safepoint is, the stop is ttsp-spike's), or
 * reaches the threshold by itself (a stop long in both is both). */
bool rl_vmop_stop(const struct rules *r, const struct tl_stop *s)
{
	if (!vmop_named(s->op) || s->total_ms < r->cfg.vmop_warn_ms)
		return false;
	double op = op_part(s);
	return op >= (1.0 - r->cfg.ttsp_share) * s->total_ms || op >= r->cfg.vmop_warn_ms;
}

static const char *jdks(unsigned m, char *buf, size_t len)
{
	static const char *const rel[] = {"8", "11", "17", "21"};
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < 4; i++)
		if ((m & (1u << i)) && n < len)
			n += (size_t)fmt_s(buf + n, len - n, "%s%s", n ? ", " : "", rel[i]);
	return buf;
}

/* the collection inside the stop: what it took and what that means */
static void gc_part(struct rules *r, const struct rules_ctx *c, struct vdraft *v, const struct tl_stop *s)
{
	const struct tl_pause *lp;
	double gc = rl_stop_gc_ms(c->tl, s, &lp);
	char t[UTIL_HMS_LEN];
	if (!lp)
		return;
	bool asked = strstr(lp->cause, "Heap Inspection") || strstr(lp->cause, "Heap Dump");
	vevid(v, "%s:%llu %s %s%s%s%s %.0fM->%.0fM(%.0fM) %.1f ms inside the stop: the collection %.0f%% of it, "
	      "the operation's own work the other %.0f ms", rl_sname(c, lp->src), (unsigned long long)lp->line,
	      rl_hms(r, lp->t_ms, t), lp->title, lp->cause[0] ? " (" : "", lp->cause, lp->cause[0] ? ")" : "",
	      rl_mb10(lp->before_mb10), rl_mb10(lp->after_mb10), rl_mb10(lp->committed_mb10), lp->dur_ms,
	      100.0 * gc / s->total_ms, s->total_ms - gc);
	if (gc >= r->cfg.vmop_gc_share * s->total_ms)
		vevid(v, "the collection is most of the stop: see long-gc-pause for it");
	if (asked && strcmp(s->op, "HeapDumper") == 0)
		vadvice(v, " The Full GC before the dump (%s) comes from a live dump (jmap -dump:live, jcmd "
			"GC.heap_dump without -all); -all skips it, and neither -XX:+ExplicitGCInvokesConcurrent nor "
			"-XX:+DisableExplicitGC prevents it.", lp->cause);
}

static void judge_long_vm_operation(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct incident *in = f->in;
	if (f->stops_from_pauses)
		return;
	const struct tl_stop *w = NULL;
	int n = 0;
	char others[240] = "";
	size_t ol = 0;
	struct tl_stop_iter it;
	struct tl_stopref sr;
	double min = r->cfg.vmop_warn_ms > r->cfg.stop_ms ? r->cfg.vmop_warn_ms : r->cfg.stop_ms;
	timeline_stops_begin(&it, c->tl, in->start_ms, in->end_ms, min);
	const struct tl_stop *seen[8];
	int nseen = 0;
	int64_t first_ms = EV_TIME_NONE, last_ms = EV_TIME_NONE;
	while (timeline_stops_next(&it, &sr)) {
		const struct tl_stop *s = sr.stop;
		if (!s || !rl_vmop_stop(r, s))
			continue;
		/* the same safepoint from two sources (gc.log and the console) once */
		bool dup = false;
		for (int k = 0; k < nseen && !dup; k++)
			dup = llabs(seen[k]->end_ms - s->end_ms) <= 1 && fabsf(seen[k]->total_ms - s->total_ms) < 1 &&
			      strcmp(seen[k]->op, s->op) == 0;
		if (dup)
			continue;
		seen[nseen++ % 8] = s;
		if (nseen > 8)
			nseen = 8;
		n++;
		if (!w || s->total_ms > w->total_ms)
			w = s;
		if (first_ms == EV_TIME_NONE || s->start_ms < first_ms)
			first_ms = s->start_ms;
		if (last_ms == EV_TIME_NONE || s->end_ms > last_ms)
			last_ms = s->end_ms;
		char at[UTIL_HMS_LEN];
		if (n <= 4 && ol < sizeof others)
			ol += (size_t)fmt_s(others + ol, sizeof others - ol, "%s%s %.0f ms at %s", ol ? ", " : "",
					    s->op, s->total_ms, rl_hms(r, s->start_ms, at));
	}
	if (!w)
		return;
	const struct vmop_info *vi = rl_vmop_find(w->op);
	struct vdraft v;
	char d1[32], t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], when[64], rels[32];
	vinit(&v, V_LONG_VM_OPERATION, in->id, w->total_ms >= r->cfg.vmop_crit_ms ? SEV_CRIT : SEV_WARN);
	/* it covers every stop it names (raised at the first, the longest
	 * headlined): a verdict's extent never jumps past where it was raised */
	v.start_ms = first_ms;
	v.end_ms = last_ms;
	v.jump_ms = w->start_ms;
	rl_fmt_ms(w->total_ms, d1, sizeof d1);
	/* the operation and who runs it first: --brief and narrow panes cut the title */
	vtitle(&v, "The JVM stopped %s in the VM operation \"%s\": %s, %s", d1, w->op,
	       vi ? vi->what : "an operation HotSpot runs at a safepoint", rl_stop_when(r, w, when, sizeof when));
	vevid(&v, "%s:%llu %s safepoint \"%s\": reaching %.1f ms, the operation %.1f ms, total %.1f ms",
	      rl_sname(c, w->src), (unsigned long long)w->line, rl_hms(r, w->end_ms, t2), w->op,
	      w->ttsp_ms, op_part(w), w->total_ms);
	gc_part(r, c, &v, w);
	if (n > 1)
		vevid(&v, "%d stops of VM operations >= %.0f ms in this incident: %s%s", n, min, others,
		      n > 4 ? ", ..." : "");
	if (vi)
		vevid(&v, "\"%s\" is a HotSpot VM operation of JDK %s (VM_OPS_DO)", w->op, jdks(vi->jdk, rels, sizeof rels));
	else
		vevid(&v, "\"%s\" is in no VM_OPS_DO list of JDK 8, 11, 17 or 21 (a newer JDK or a vendor's "
		      "build)", w->op);
	if (f->throttled)
		vevid(&v, "cgroup: throttled_time %+.0f ms in %s-%s: see cpu-throttled-during-stop",
		      f->cd.throttled_us / 1000.0, rl_hms(r, f->cd.from_ms, t1), rl_hms(r, f->cd.to_ms, t2));
	/* gc_part() may have put its advice first: the operation's goes before it */
	char gcadv[VERDICT_ADVICE_LEN];
	fmt_s(gcadv, sizeof gcadv, "%s", v.advice);
	v.advice[0] = '\0';
	if (f->throttled)
		vadvice(&v, "The cgroup was CPU-throttled during this stop (see cpu-throttled-during-stop): the VM "
			"thread doing the operation gets no CPU either, so the operation takes longer than it would "
			"on a free CPU. Fix the throttling first; then, if it is still long: ");
	if (vi && vi->advice)
		vadvice(&v, "%s", vi->advice);
	else
		vadvice(&v, "Not a collection and not the wait for threads to reach the safepoint: the JVM's own "
			"work in \"%s\" took the time. -Xlog:safepoint*=debug and JFR's jdk.ExecuteVMOperation event "
			"say more about who asked for it.", w->op);
	vadvice(&v, "%s", gcadv);
	if (!f->throttled)
		rl_missing_sources_advice(&v, c, true);
	rv_commit(r, &v);
}

/* its thresholds (--config, --help-config) */
static const struct rule_knob long_vm_operation_knobs[] = {
	RULE_KNOB(vmop_warn_ms, 100, "the stop threshold: every stop it counts gets its operation named; healthy "
				     "runs here hold non-GC operations <= 1.75 ms (docs/verdicts.md)"),
	RULE_KNOB(vmop_crit_ms, 1000, "a 1 s+ stop passes nginx's 1 s SYN retry and most callers' timeouts"),
	RULE_KNOB(vmop_gc_share, 0.8, "a collection inside a tool's stop is its long part (long-gc-pause) "
				      "from 4/5 of it; jmap -histo:live recorded here: 61-71 %"),
};

const struct rule rule_long_vm_operation = {
	.info = {.id = V_LONG_VM_OPERATION, .name = "long-vm-operation", .kind = VERDICT_INCIDENT, .rank = 2,
		 .explains_stop = true},
	.judge = judge_long_vm_operation,
	RULE_KNOBS(long_vm_operation_knobs),
};
