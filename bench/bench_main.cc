// bench/bench_main.cc — the only C++ file of the benchmarks: registers the C
// case tables with google-benchmark (the kernel suite of bench_kernels.c,
// once per runnable kernel table and size; the codec suite of
// bench_codec.h: desert cases, workloads, peers and memcpy rows, per ISA
// where kernels matter), and prints the dispatch facts first so no number
// is ever labelled with an ISA that did not run.
//
// Own flags (the rest goes to google-benchmark):
//   --verify                    only check every row's output (all kernel
//                               cases and sizes, every codec row); prints
//                               "N passed, N failed, N skipped" and exits 1
//                               on any mismatch or setup failure
//   --desert_include_emulated   also run NEON through SIMDe (never a
//                               performance number; rows say "-emulated")
//   --dump-oplog DIR            write the oplog rows' messages to
//                               DIR/oplog_p{16,256,1024}.bin and exit
//                               (bench_oplog_rows.h gives the layout)
// A codec row that cannot run here (the golden file is missing) is skipped
// loudly; with DESERT_REQUIRE_GOLDEN=1 that is a failure.
// SPDX-License-Identifier: MIT
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef DESERT_BENCH_HAVE_SIMDJSON
#include <simdjson.h>
#endif

extern "C" {
#include "bench_codec.h"
#include "bench_kernels.h"
#ifndef DESERT_BENCH_NO_GEN
#include "bench_oplog_rows.h"
#include "bench_evolution.h"
#include "bench_golem_oplog.h"
// The peers of the evolution rows (bench_evolution_peers.c) and the
// protobuf-c peer of the golem_oplog rows (bench_golem_peers_pb.c): one
// table each, none when their peer libraries are missing.
size_t bench_evolution_peer_tables(codec_table *out, size_t max);
size_t bench_golem_pb_tables(codec_table *out, size_t max);
#endif
#include "desert/kernels.h"
#include "base/kernels.h"
}

namespace {

const size_t kSizes[] = {64, 1024, 64 * 1024, 1024 * 1024};

std::string size_label(size_t s) {
  if (s >= 1024 * 1024) return std::to_string(s / (1024 * 1024)) + "MiB";
  if (s >= 1024) return std::to_string(s / 1024) + "KiB";
  return std::to_string(s) + "B";
}

std::string table_label(const desert_kernels *k) {
  std::string isa = bench_table_name(k);
  if (bench_table_emulated(k)) isa += "-emulated";
  return isa;
}

// ---- kernel suite -----------------------------------------------------------

void run_case(benchmark::State &state, const bench_case *c, const desert_kernels *k, size_t size) {
  size_t bytes = 0, items = 0;
  void *data = c->setup(size, &bytes, &items);
  if (!data) {
    state.SkipWithError("setup failed (allocation)");
    return;
  }
  // Verify before timing: every rotated variant once.
  for (size_t i = 0; i < 8; i++) {
    if (c->run(k, data, i) == static_cast<size_t>(-1)) {
      c->teardown(data);
      state.SkipWithError("wrong result");
      return;
    }
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(c->run(k, data, i++));
    benchmark::ClobberMemory();
  }
  c->teardown(data);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(items));
  state.counters["bytes_per_op"] = static_cast<double>(bytes);
  state.SetLabel(k ? bench_table_name(k) : "reference");
}

#ifdef DESERT_BENCH_HAVE_SIMDJSON
// simdjson reference rows: cases named "utf8_validate/..." only.
bool simdjson_case(const bench_case *c) { return std::strncmp(c->name, "utf8_validate/", 14) == 0; }

size_t simdjson_run(void *data, size_t i) {
  size_t len = 0;
  const uint8_t *in = bench_case_input(data, i, &len);
  if (!simdjson::validate_utf8(reinterpret_cast<const char *>(in), len))
    return static_cast<size_t>(-1);
  return len;
}

// Setup and verification as run_case (the inputs are all valid UTF-8).
void run_simdjson(benchmark::State &state, const bench_case *c, size_t size) {
  size_t bytes = 0, items = 0;
  void *data = c->setup(size, &bytes, &items);
  if (!data) {
    state.SkipWithError("setup failed (allocation)");
    return;
  }
  for (size_t i = 0; i < 8; i++) {
    if (simdjson_run(data, i) == static_cast<size_t>(-1)) {
      c->teardown(data);
      state.SkipWithError("wrong result");
      return;
    }
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(simdjson_run(data, i++));
    benchmark::ClobberMemory();
  }
  c->teardown(data);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(items));
  state.counters["bytes_per_op"] = static_cast<double>(bytes);
  state.SetLabel(std::string("simdjson ") + simdjson::get_active_implementation()->name());
}
#endif

// ---- codec suite --------------------------------------------------------------

struct CodecRow {
  const codec_case *c;
  desert_isa isa;   // DESERT_ISA_AUTO: the process default
  std::string name; // codec/<key>/<impl>/<isa>
};

long minflt_now() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

bool golden_required() {
  const char *v = std::getenv("DESERT_REQUIRE_GOLDEN");
  return v && std::strcmp(v, "1") == 0;
}

void run_codec(benchmark::State &state, const CodecRow *row) {
  const codec_case *c = row->c;
  codec_info info;
  std::memset(&info, 0, sizeof info);
  void *st = c->setup(row->isa, c->param, &info);
  if (!st) {
    std::string why =
        info.skip[0] ? std::string("skipped: ") + info.skip
                     : std::string("setup failed: ") + (info.fail[0] ? info.fail : "out of memory");
    state.SkipWithError(why.c_str());
    return;
  }
  char msg[256] = {0};
  if (c->verify(st, msg, sizeof msg)) {
    c->teardown(st);
    state.SkipWithError((std::string("verification failed: ") + msg).c_str());
    return;
  }
  long flt0 = minflt_now();
  size_t i = 0;
  if (c->run_batch) {
    // CODEC_BATCH_OPS ops per call (bench_codec.h says why); the iteration
    // count and so every per-op figure stay per op.
    while (state.KeepRunningBatch(CODEC_BATCH_OPS)) {
      benchmark::DoNotOptimize(c->run_batch(st, i, CODEC_BATCH_OPS));
      i += CODEC_BATCH_OPS;
    }
  } else {
    for (auto _ : state) {
      benchmark::DoNotOptimize(c->run(st, i++));
      benchmark::ClobberMemory();
    }
  }
  long flt1 = minflt_now();
  c->teardown(st);
  const double iters = static_cast<double>(state.iterations());
  if (info.bytes_per_op) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(info.bytes_per_op));
    state.counters["bytes_per_op"] = static_cast<double>(info.bytes_per_op);
  }
  if (info.items_per_op)
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(info.items_per_op));
  state.counters["case_no"] = c->case_no;
  if (c->rust_ref_ns > 0) state.counters["rust_ref_ns"] = c->rust_ref_ns;
  if (c->flags & CODEC_HEADLINE) state.counters["headline"] = 1;
  if (c->flags & CODEC_FAULTS)
    state.counters["minflt_per_op"] = iters > 0 ? static_cast<double>(flt1 - flt0) / iters : 0.0;
  state.SetLabel(c->desc);
}

std::vector<CodecRow> codec_rows(const desert_kernels *const *tables, size_t nt) {
  // All cases, grouped by key in order of first appearance, so each case's
  // desert, memcpy and peer rows run next to each other.
  std::vector<const codec_case *> all;
  // Room to spare: a table past the end would be left out without a word.
  constexpr size_t kMaxTables = 16;
  codec_table t[kMaxTables];
  size_t n = bench_codec_tables(t, kMaxTables);
#ifndef DESERT_BENCH_NO_GEN
  n += bench_oplog_tables(t + n, kMaxTables - n); // desert-rust's oplog benchmark (bench_oplog_*.c)
  n += bench_evolution_tables(t + n, kMaxTables - n); // desert-rust's evolution_stress (bench_evolution.c)
  n += bench_golem_oplog_tables(t + n, kMaxTables - n); // desert-rust's golem_oplog (bench_golem_*.c)
  n += bench_evolution_peer_tables(t + n, kMaxTables - n);
  n += bench_golem_pb_tables(t + n, kMaxTables - n);
#endif
  for (size_t ti = 0; ti < n; ti++)
    for (size_t ci = 0; ci < t[ti].count; ci++) all.push_back(&t[ti].cases[ci]);
  std::vector<std::string> keys;
  for (const codec_case *c : all) {
    bool seen = false;
    for (const std::string &k : keys) seen = seen || k == c->key;
    if (!seen) keys.push_back(c->key);
  }
  std::vector<CodecRow> rows;
  const std::string active = desert_isa_name(desert_active_isa());
  for (const std::string &key : keys) {
    for (const codec_case *c : all) {
      if (key != c->key) continue;
      std::string base = std::string("codec/") + c->key + "/" + c->impl + "/";
      bool desert = std::strcmp(c->impl, "desert") == 0;
      if (desert && (c->flags & CODEC_PER_ISA)) {
        for (size_t ti = 0; ti < nt; ti++)
          rows.push_back(CodecRow{c, tables[ti]->isa, base + table_label(tables[ti])});
      } else {
        rows.push_back(CodecRow{c, DESERT_ISA_AUTO, base + (desert ? active : std::string("-"))});
      }
    }
  }
  return rows;
}

// ---- --verify -------------------------------------------------------------------

int verify_all(const desert_kernels *const *tables, size_t nt, const std::vector<CodecRow> &rows) {
  int passed = 0, failed = 0, skipped = 0;
  for (size_t ci = 0; ci < bench_kernel_case_count; ci++) {
    const bench_case *c = &bench_kernel_cases[ci];
    for (size_t s : kSizes) {
      for (size_t t = 0; t < (c->has_kernel ? nt : 1); t++) {
        std::string name = std::string("kernel/") + c->name + "/" +
                           (c->has_kernel ? table_label(tables[t]) : "ref") + "/" + size_label(s);
        size_t bytes = 0, items = 0;
        void *data = c->setup(s, &bytes, &items);
        bool ok = data != nullptr;
        for (size_t i = 0; ok && i < 8; i++)
          ok = c->run(tables[t], data, i) != static_cast<size_t>(-1);
        if (data) c->teardown(data);
        if (ok) {
          passed++;
        } else {
          failed++;
          std::printf("FAIL  %s: %s\n", name.c_str(), data ? "wrong result" : "setup failed");
        }
      }
#ifdef DESERT_BENCH_HAVE_SIMDJSON
      if (simdjson_case(c)) {
        std::string name = std::string("kernel/") + c->name + "/simdjson/" + size_label(s);
        size_t bytes = 0, items = 0;
        void *data = c->setup(s, &bytes, &items);
        bool ok = data != nullptr;
        for (size_t i = 0; ok && i < 8; i++) ok = simdjson_run(data, i) != static_cast<size_t>(-1);
        if (data) c->teardown(data);
        if (ok) {
          passed++;
        } else {
          failed++;
          std::printf("FAIL  %s: %s\n", name.c_str(), data ? "wrong result" : "setup failed");
        }
      }
#endif
    }
  }
  std::printf("verify: kernel suite: %d rows checked, %d failed\n", passed + failed, failed);
  for (const CodecRow &row : rows) {
    codec_info info;
    std::memset(&info, 0, sizeof info);
    void *st = row.c->setup(row.isa, row.c->param, &info);
    if (!st) {
      if (info.skip[0] && !golden_required()) {
        skipped++;
        std::printf("SKIP  %s: %s\n", row.name.c_str(), info.skip);
      } else {
        failed++;
        std::printf("FAIL  %s: %s\n", row.name.c_str(),
                    info.skip[0]   ? info.skip
                    : info.fail[0] ? info.fail
                                   : "setup failed");
      }
      continue;
    }
    char msg[256] = {0};
    int bad = row.c->verify(st, msg, sizeof msg);
    // One timed-path call per variant too: run() must not fail after verify.
    // An oplog op is a whole pass over 10,000 entries with no input
    // variants: one call shows it runs.
    const size_t runs = std::strncmp(row.c->key, "oplog_", 6) == 0 ? 1 : CODEC_K;
    for (size_t i = 0; !bad && i < runs; i++) (void)row.c->run(st, i);
    row.c->teardown(st);
    if (bad) {
      failed++;
      std::printf("FAIL  %s: %s\n", row.name.c_str(), msg);
    } else {
      passed++;
      std::printf("ok    %s\n", row.name.c_str());
    }
  }
  std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  // Our own flags first; the rest goes to google-benchmark.
  bool include_emulated = false, verify = false;
  std::vector<char *> args;
  for (int i = 0; i < argc; i++) {
    if (std::strcmp(argv[i], "--desert_include_emulated") == 0) {
      include_emulated = true;
      continue;
    }
    if (std::strcmp(argv[i], "--verify") == 0) {
      verify = true;
      continue;
    }
    if (std::strcmp(argv[i], "--dump-oplog") == 0) {
#ifndef DESERT_BENCH_NO_GEN
      if (i + 1 < argc) return bench_oplog_dump(argv[i + 1]) ? 1 : 0;
      std::fprintf(stderr, "desert_bench: --dump-oplog needs a directory\n");
#else
      std::fprintf(stderr, "desert_bench: built without the oplog rows (no gen-c)\n");
#endif
      return 2;
    }
    args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());

  desert_dispatch_info info;
  desert_dispatch_info_get(&info);
  char feats[256];
  desert_cpu_feature_names(info.cpu_features, feats, sizeof feats);
  std::printf("desert bench: active ISA %s%s; CPU class %s; CPU features: %s\n",
              desert_isa_name(info.active), info.active_emulated ? " (EMULATED)" : "",
              desert_cpu_class_name(), feats);
  const char *forced = std::getenv("DESERT_FORCE_ISA");
  if (forced && *forced && std::strcmp(forced, "auto") != 0 &&
      info.outcome != DESERT_OVERRIDE_APPLIED) {
    std::fprintf(stderr,
                 "desert bench: DESERT_FORCE_ISA=%s did not take effect (%s); refusing "
                 "to label results with an ISA that did not run\n",
                 forced,
                 info.outcome == DESERT_OVERRIDE_UNKNOWN_NAME
                     ? "names no ISA: use scalar, avx2, avx512, neon or auto"
                     : "that ISA is not compiled in or not runnable on this CPU");
    return 1;
  }
  std::fflush(stdout);

  const desert_kernels *tables[8];
  size_t nt = bench_tables(tables, 8, include_emulated ? 1 : 0);
  static std::vector<CodecRow> rows = codec_rows(tables, nt);
  if (verify) return verify_all(tables, nt, rows);

  const desert_kernels *ktables[9];
  const size_t nk = bench_kernel_tables(ktables, 9, include_emulated ? 1 : 0);
  for (size_t ci = 0; ci < bench_kernel_case_count; ci++) {
    const bench_case *c = &bench_kernel_cases[ci];
    for (size_t s : kSizes) {
      if (!c->has_kernel) {
        std::string name = std::string("kernel/") + c->name + "/ref/" + size_label(s);
        benchmark::RegisterBenchmark(name.c_str(), run_case, c, tables[0], s);
        continue;
      }
      for (size_t t = 0; t < nk; t++) {
        std::string name =
            std::string("kernel/") + c->name + "/" + table_label(ktables[t]) + "/" + size_label(s);
        benchmark::RegisterBenchmark(name.c_str(), run_case, c, ktables[t], s);
      }
#ifdef DESERT_BENCH_HAVE_SIMDJSON
      if (simdjson_case(c)) {
        std::string name = std::string("kernel/") + c->name + "/simdjson/" + size_label(s);
        benchmark::RegisterBenchmark(name.c_str(), run_simdjson, c, s);
      }
#endif
    }
  }
  for (const CodecRow &row : rows) benchmark::RegisterBenchmark(row.name.c_str(), run_codec, &row);

  // Which ISA's kernel fills each slot of the AVX-512 table (it keeps the
  // AVX2 kernel where its own was not measured faster): report.py's
  // slot-by-slot section reads it from the JSON context.
  if (desert_isa_compiled(DESERT_ISA_AVX512)) {
    std::string slots;
    for (size_t i = 0; i < desert_kernel_slot_count(); i++) {
      if (!slots.empty()) slots += ",";
      slots += std::string(desert_kernel_slot_name(i)) + "=" +
               desert_isa_name(desert_kernel_slot_isa(DESERT_ISA_AVX512, i));
    }
    benchmark::AddCustomContext("desert_avx512_slots", slots);
  }
  // The CPU class the kernel policy chose the default table's slots for.
  benchmark::AddCustomContext("desert_cpu_class", desert_cpu_class_name());

#ifndef DESERT_BENCH_NO_GEN
  // report.py prints desert-rust's oplog figures only beside rows of this host class.
  benchmark::AddCustomContext("desert_oplog_host_class", bench_oplog_host_class());
#endif
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
