// The GPU engine's memory, checked on the host (label gpu-pipeline): the
// device memory plan and its cap, the arena plan, and PipelineMemory's rules
// (kept between calls, grown when needed, given back) on a pretend device,
// on the host pipeline and on the stand-in for a device.
#include <cstring>
#include <map>

#include "gpu/host_exec.hpp"
#include "gpu/host_pipeline.hpp"
#include "gpu/level_pipeline.hpp"
#include "support/engine_check.hpp"

using perftide::gpu::Options;
using perftide::gpu::Stats;
namespace host = perftide::gpu::host;

// The stand-in keeps its tables between calls as a device does: statistics
// after counts, counts after statistics and statistics again, all with the
// same tables asked for, each right (a table of one kind is cleared before
// it serves the other).
TEST(PipelineMemory, StandInTablesServeCountsAndRowsInTurn) {
    const auto roots = transposing_batch();
    const auto counts = text(perftide::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    std::vector<perftide::StatsTotal> rows;
    for (const chess::Position& root : roots)
        for (const auto& row : perftide::cpu_perft_stats(root, TRANSPOSING_DEPTH, 0)) rows.push_back(row);
    Options o = keyed(1 << 20, false);
    o.arena_bytes = 256 << 10;  // chunks, so that later ones find what earlier ones stored
    for (int turn = 0; turn < 2; ++turn) {
        Stats s;
        EXPECT_EQ(stats_text(host::stand_in::perft_stats(roots, TRANSPOSING_DEPTH, o, &s)), stats_text(rows)) << turn;
        EXPECT_GT(s.table_hits, 0u) << turn;
        EXPECT_EQ(text(host::stand_in::perft_batch(roots, TRANSPOSING_DEPTH, o, &s)), counts) << turn;
        EXPECT_GT(s.table_hits, 0u) << turn;
    }
    host::stand_in::release_memory();
}

// The device memory plan (kernels/gpu/device_memory.hpp): a call takes its
// arena plan's want within the budget, never all free memory; tables and
// arena fit the budget or the request is refused naming the numbers and
// where the cap came from.
TEST(DeviceMemory, PlansWithinTheCapAndRefusesWhatDoesNotFit) {
    using namespace perftide::gpu;
    constexpr std::size_t GIB = std::size_t(1) << 30, MIB = DEVICE_MIB;
    // 140 GiB device, 100 GiB free: headroom max(total/32, 512 MiB) = 4.375 GiB.
    const DeviceFree d{100 * GIB, 140 * GIB};
    const std::size_t usable = d.free - d.total / 32;
    const std::size_t share = std::size_t(double(usable) * DEFAULT_DEVICE_SHARE);
    // The arena is what the call wants, not the rest of the budget.
    DeviceMemoryPlan p = plan_device_memory(d, {}, 0, 0, 64 * MIB, 0.5);
    EXPECT_EQ(p.arena_bytes, 64 * MIB);
    EXPECT_EQ(plan_device_memory(d, {}, 0, 0, 1, 0.5).arena_bytes, MIN_ARENA_BYTES);
    EXPECT_EQ(plan_device_memory(d, {}, 0, 0, 1000 * GIB, 0.5).arena_bytes, share);  // at most the budget
    // Automatic tables take their share of the budget; the arena its want within the rest.
    p = plan_device_memory(d, {}, -1, 0, 1000 * GIB, 0.5);
    EXPECT_EQ(p.table_bytes, std::size_t(double(share) * 0.5));
    EXPECT_EQ(p.table_bytes + p.arena_bytes, share);
    const DeviceMemoryCap flag{8 * GIB, CapSource::Flag};
    p = plan_device_memory(d, flag, -1, 0, 256 * MIB, 0.5);
    EXPECT_EQ(p.table_bytes, 4 * GIB);
    EXPECT_EQ(p.arena_bytes, 256 * MIB);
    p = plan_device_memory(d, flag, (long long)(2 * GIB), 256 * MIB, 8 * GIB, 0.5);  // an exact arena request
    EXPECT_EQ(p.table_bytes, 2 * GIB);
    EXPECT_EQ(p.arena_bytes, 256 * MIB);
    const auto refusal = [&](const DeviceFree& free, const DeviceMemoryCap& cap, long long tables) {
        try {
            plan_device_memory(free, cap, tables, 0, 0, 0.5);
        } catch (const perftide::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal(d, flag, (long long)(8 * GIB))
                  .find("device tables of 8192 MiB and an arena of 64 MiB do not fit the 8192 MiB of device memory "
                        "this run may take (--device-memory 8192)"),
              std::string::npos);
    // A cap above what is free names its source, flag or variable.
    const std::string by_flag = refusal(d, {200 * GIB, CapSource::Flag}, 0);
    EXPECT_NE(by_flag.find("(--device-memory 204800)"), std::string::npos) << by_flag;
    EXPECT_NE(by_flag.find("102400 MiB free"), std::string::npos) << by_flag;
    const std::string by_env = refusal(d, {200 * GIB, CapSource::Environment}, 0);
    EXPECT_NE(by_env.find("(PERFTIDE_DEVICE_MEMORY=204800)"), std::string::npos) << by_env;
    EXPECT_EQ(by_env.find("--device-memory"), std::string::npos) << by_env;
    EXPECT_NE(refusal({256 * MIB, 140 * GIB}, {}, 0), "accepted");  // nothing usable
    // The frontier's budget: --memory, else the cap, else half the free memory.
    EXPECT_EQ(frontier_budget(d, {}, 0), 50 * GIB);
    EXPECT_EQ(frontier_budget(d, flag, 0), 8 * GIB);
    EXPECT_EQ(frontier_budget(d, flag, GIB), GIB);
    try {
        frontier_budget(d, {60 * GIB, CapSource::Environment}, 0);
        ADD_FAILURE() << "a frontier budget above half the free memory was accepted";
    } catch (const perftide::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("(PERFTIDE_DEVICE_MEMORY=61440)"), std::string::npos) << e.what();
    }
}

// The cap comes from set_device_memory_limit (--device-memory), else
// PERFTIDE_DEVICE_MEMORY, whose bad values are refused naming the variable
// and the value, even when the flag overrides it.
TEST(DeviceMemory, CapComesFromTheFlagOrTheVariableAndRefusesBadValues) {
    using namespace perftide::gpu;
    setenv("PERFTIDE_DEVICE_MEMORY", "1024", 1);
    EXPECT_EQ(device_memory_cap(), (DeviceMemoryCap{1024 * DEVICE_MIB, CapSource::Environment}));
    set_device_memory_limit(2048 * DEVICE_MIB);
    EXPECT_EQ(device_memory_cap(), (DeviceMemoryCap{2048 * DEVICE_MIB, CapSource::Flag}));
    for (const char* bad : {"abc", "0", "-5", "12x", " 64", "99999999999999999999", "10", "16777217"}) {
        setenv("PERFTIDE_DEVICE_MEMORY", bad, 1);
        try {
            device_memory_cap();
            ADD_FAILURE() << "PERFTIDE_DEVICE_MEMORY=" << bad << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("PERFTIDE_DEVICE_MEMORY='") + bad + "'"), std::string::npos)
                << e.what();
        }
    }
    set_device_memory_limit(0);
    unsetenv("PERFTIDE_DEVICE_MEMORY");
    EXPECT_EQ(device_memory_cap(), DeviceMemoryCap{});
}

// The arena plan (kernels/gpu/arena_plan.hpp), a pure function: the arena a call
// wants from its shape, the plies left to the host, the root slices and the
// chunks under a cap.
TEST(ArenaPlan, SizesTheArenaFromTheCallsShape) {
    using namespace perftide::gpu;
    constexpr std::size_t MIB = DEVICE_MIB, POS = 48;
    ArenaInputs in;
    in.roots = 1, in.depth = 5, in.growth = 20, in.position_bytes = POS, in.dedup = true;
    ArenaPlan p = plan_arena(in);
    // By hand: keyed with dedup from device depth 3 on, two made levels above the leaf.
    const double made = double(4 + 2 + POS + 4 + 16 + 1) + 16 + (4 + 16 + 8 + 1);
    EXPECT_DOUBLE_EQ(p.made_bytes, made);
    const double s4 = made + 20 * 6.0, s5 = made + 20 * s4;
    EXPECT_EQ(p.level_bytes, std::size_t(8 + 20 * s5));
    EXPECT_EQ(p.want_bytes, p.root_bytes + p.level_bytes);
    EXPECT_EQ(p.arena_bytes, MIN_ARENA_BYTES);  // a small call: the smallest arena
    EXPECT_EQ(p.host_plies, 0);
    EXPECT_EQ(p.root_slices, 1u);
    EXPECT_EQ(p.chunks, 1u);
    // Deeper: plies above the device depth go to the host, and the arena is
    // the want rounded up to a power of two.
    in.depth = 9;
    p = plan_arena(in);
    EXPECT_EQ(p.host_plies, 2);
    EXPECT_EQ(p.device_depth, 7);
    EXPECT_EQ(p.device_roots, 400u);
    EXPECT_GE(p.arena_bytes, p.want_bytes);
    EXPECT_LT(p.arena_bytes / 2, p.want_bytes);
    EXPECT_EQ(p.arena_bytes & (p.arena_bytes - 1), 0u);
    // Under a cap: the arena is the cap and the levels come in chunks.
    in.cap = 256 * MIB;
    const ArenaPlan capped = plan_arena(in);
    EXPECT_EQ(capped.arena_bytes, 256 * MIB);
    EXPECT_GT(capped.chunks, 1u);
    EXPECT_GE(double(capped.chunks) * double(capped.arena_bytes), double(p.level_bytes) * 0.99);
    // Without keys (no tables, no dedup) made items are smaller; statistics
    // make one level more and carry a row per position; depth 1 makes no level.
    in.cap = 0, in.depth = 6, in.dedup = false;
    EXPECT_DOUBLE_EQ(plan_arena(in).made_bytes, made_item_bytes(POS));
    in.stats = true;
    EXPECT_DOUBLE_EQ(plan_arena(in).made_bytes, made_item_bytes(POS) + ROW_ITEM_BYTES);
    in.dedup = true;
    const ArenaPlan stats = plan_arena(in);
    EXPECT_DOUBLE_EQ(stats.made_bytes, made_item_bytes(POS) + ROW_ITEM_BYTES + KEY_ITEM_BYTES + DEDUP_ITEM_BYTES);
    in.stats = false, in.dedup = false;
    EXPECT_GT(stats.level_bytes, plan_arena(in).level_bytes);
    in.depth = 1;
    EXPECT_EQ(plan_arena(in).level_bytes, 0u);
    // Many roots: slices of at most an eighth of the arena.
    in.depth = 4, in.roots = 10'000'000, in.cap = 64 * MIB;
    p = plan_arena(in);
    EXPECT_GE(double(p.root_slices) * double(p.arena_bytes) / ROOT_SHARE,
              double(in.roots) * (made_item_bytes(POS) + KEY_ITEM_BYTES + DEDUP_ITEM_BYTES));
}

// A pretend device for PipelineMemory (kernels/gpu/pipeline_memory.hpp): a fixed
// capacity, every allocation and free counted.
struct PretendDevice {
    std::size_t capacity = 0, used = 0;
    int allocations = 0;
    std::map<void*, std::size_t> live;
};
struct PretendAllocator {
    PretendDevice* d = nullptr;
    void* allocate(std::size_t bytes) {
        if (bytes > d->capacity - d->used) return nullptr;
        void* p = ::operator new(bytes);
        d->used += bytes, ++d->allocations, d->live[p] = bytes;
        return p;
    }
    void deallocate(void* p, std::size_t bytes) noexcept {
        EXPECT_EQ(d->live.at(p), bytes);
        d->live.erase(p), d->used -= bytes;
        ::operator delete(p);
    }
    void zero(void* p, std::size_t bytes) { std::memset(p, 0, bytes); }
};

// The owner's rules for its memory, checked on the host: planned once, kept
// while the calls' wants fit it (no query, no allocation), the arena grown
// alone when a call wants more, tables kept (and cleared for another seed),
// an arena above the kept size given back at a call's end without tables,
// and all of it by release() or the owner's end.
TEST(PipelineMemory, KeptBetweenCallsGrownWhenNeededAndGivenBack) {
    using namespace perftide::gpu;
    constexpr std::size_t MIB = DEVICE_MIB;
    PretendDevice dev;
    dev.capacity = 2048 * MIB;
    const DeviceFree device{2048 * MIB, 2048 * MIB};  // kept size: max(64 MiB, 2048 / 16 MiB) = 128 MiB
    int queries = 0;
    const auto query = [&] { return ++queries, DeviceFree{device.free - dev.used, device.total}; };
    const DeviceMemoryCap cap{1024 * MIB, CapSource::Flag};
    {
        PipelineMemory<PretendAllocator> m(PretendAllocator{&dev});
        MemoryRequest r{0, 64 * MIB, (long long)(64 * MIB), cap, 1};
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(m.table_bytes(), 64 * MIB);
        EXPECT_EQ(m.arena_bytes(), 64 * MIB);
        EXPECT_EQ(dev.allocations, 2);
        m.end_call();
        static_cast<char*>(m.tables())[12345] = 7;  // an entry stored by the call
        r.arena_want = 32 * MIB;                    // a smaller want: served as it is
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(queries, 1);
        EXPECT_EQ(dev.allocations, 2);
        r.arena_want = 512 * MIB;  // a bigger one: the arena alone grows
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(m.arena_bytes(), 512 * MIB);
        EXPECT_EQ(dev.allocations, 3);
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 7);
        m.end_call();  // tables keep the arena for the run's next call
        EXPECT_EQ(dev.used, 576 * MIB);
        r.seed = 2;  // another seed: new keys, tables cleared, nothing allocated
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 0);
        EXPECT_EQ(dev.allocations, 3);
        static_cast<char*>(m.tables())[12345] = 7;
        r.rows = true;  // statistics rows in the same tables: cleared, the keys kept
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 0);
        static_cast<char*>(m.tables())[12345] = 7;
        EXPECT_FALSE(m.prepare(r, query));  // rows again: kept
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 7);
        EXPECT_EQ(dev.allocations, 3);
        r.cap = {900 * MIB, CapSource::Flag};  // another cap: all planned again
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(dev.allocations, 5);
        m.release();  // the run's end, or a trim
        EXPECT_EQ(dev.used, 0u);
        // Without tables: an arena within the kept size stays after its call
        // (the next call allocates nothing); a bigger one goes back.
        const MemoryRequest small{0, 100 * MIB, 0, cap, 2};
        for (int call = 0; call < 10; ++call) {
            m.prepare(small, query);
            m.end_call();
        }
        EXPECT_EQ(dev.allocations, 6);
        EXPECT_EQ(dev.used, 100 * MIB);
        m.prepare(MemoryRequest{0, 300 * MIB, 0, cap, 2}, query);
        EXPECT_EQ(dev.used, 300 * MIB);
        m.end_call();
        EXPECT_EQ(dev.used, 0u);
        m.prepare(MemoryRequest{256 << 10, 0, 0, cap, 2}, query);  // an exact size is kept exactly
        EXPECT_EQ(m.arena_bytes(), std::size_t(256) << 10);
        m.prepare(r, query);  // and the owner's end frees what is left
    }
    EXPECT_EQ(dev.used, 0u);
    EXPECT_TRUE(dev.live.empty());
}

// When the device has less than planned (another process took it), the
// arena is retried a quarter smaller down to its minimum; below that, and
// for tables that do not fit, the call fails naming the memory and holds
// nothing.
TEST(PipelineMemory, ShrinksTheArenaToWhatIsThereOrFailsHoldingNothing) {
    using namespace perftide::gpu;
    constexpr std::size_t MIB = DEVICE_MIB;
    PretendDevice dev;
    dev.capacity = 100 * MIB;
    PipelineMemory<PretendAllocator> m(PretendAllocator{&dev});
    m.allocate(DeviceMemoryPlan{0, 128 * MIB}, MIN_ARENA_BYTES);
    EXPECT_EQ(m.arena_bytes(), 96 * MIB);
    const auto message = [&](const DeviceMemoryPlan& p, std::size_t min_arena) {
        try {
            m.allocate(p, min_arena);
        } catch (const MemoryUnavailable& e) {
            return std::string(e.what());
        }
        return std::string("no failure");
    };
    EXPECT_EQ(message({90 * MIB, 64 * MIB}, 64 * MIB), "out of memory for a working arena of 64 MiB");
    EXPECT_EQ(dev.used, 0u);
    EXPECT_EQ(message({0, 400 * MIB}, 200 * MIB), "out of memory for a working arena of 400 MiB (nor of 225 MiB)");
    EXPECT_EQ(message({200 * MIB, 64 * MIB}, 64 * MIB), "out of memory for 200 MiB of transposition tables");
    EXPECT_EQ(dev.used, 0u);
    EXPECT_EQ(m.bytes_held(), 0u);
    EXPECT_TRUE(dev.live.empty());
}

// The host pipeline holds its memory through the same PipelineMemory, and
// every byte comes back when a call ends: after a count, after a count with
// tables, and after a call that fails part way.
TEST(PipelineMemory, HostPipelineCallsGiveAllTheirMemoryBack) {
    using namespace perftide::gpu;
    const std::size_t before = host_bytes_held();
    {
        HostExec exec(1 << 20, 1 << 16);
        EXPECT_EQ(host_bytes_held(), before + (1 << 20) + (1 << 16) / sizeof(TableEntry) * sizeof(TableEntry));
    }
    EXPECT_EQ(host_bytes_held(), before);
    const auto roots = positions({KIWIPETE});
    EXPECT_EQ(text(host::perft_batch(roots, 3, Options{.table_bytes = 1 << 20})), text(perftide::cpu_perft_batch(roots, 3, 0)));
    EXPECT_EQ(host_bytes_held(), before);
    EXPECT_THROW(host::perft_batch(roots, 3, Options{.arena_bytes = 1024}), ArenaExhausted);
    EXPECT_EQ(host_bytes_held(), before);
}

// The stand-in keeps its memory between calls, as a device's owner does:
// after a process's first call, 100 more start position perft 5 calls
// allocate nothing and each count stays the CPU engine's; statistics calls
// reuse it too; release_memory (a run's end, or a trim) gives it all back.
TEST(PipelineMemory, StandInCallsAfterTheFirstAllocateNothing) {
    using namespace perftide::gpu;
    const auto roots = positions({chess::START_FEN});
    const std::string want = chess::to_string(perftide::cpu_perft_batch(roots, 5, 0)[0]);
    const std::size_t before = host_bytes_held();
    EXPECT_EQ(chess::to_string(host::stand_in::perft_batch(roots, 5, Options{}, nullptr)[0]), want);
    EXPECT_GT(host_bytes_held(), before);  // kept for the next call
    const uint64_t after_first = host_allocations();
    for (int call = 0; call < 100; ++call)
        ASSERT_EQ(chess::to_string(host::stand_in::perft_batch(roots, 5, Options{}, nullptr)[0]), want) << "call " << call;
    const auto stats_want = stats_text(perftide::cpu_perft_stats(roots[0], 3, 0));
    EXPECT_EQ(stats_text(host::stand_in::perft_stats({roots[0]}, 3, Options{}, nullptr)), stats_want);
    EXPECT_EQ(host_allocations(), after_first);
    host::stand_in::release_memory();
    EXPECT_EQ(host_bytes_held(), before);
}
