// audit_task.hpp — the tasks of the distributed audit (docs/distributed.md): how the client cuts
// its inputs into tasks without reading them (plan_input: byte ranges of a plain file, runs of
// whole Zstandard frames, or a whole gzip, bzip2 or single-frame file), and how a worker audits
// one task reading only its own part of the input (run_task). A task's records come out without
// their game numbers, and with the lines and offsets of errors relative to the task's text
// (GameSource::relative): number_records puts them in once the tasks before it are counted.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/names.hpp"
#include "audit/audit_output.hpp"

namespace arbiter::face {

/// How a task reads its part of an input.
enum class TaskKind {
    whole,   ///< the whole input (gzip, bzip2, a Zstandard file of one frame, a file not read yet)
    range,   ///< plain text: the games that start in bytes [begin, end)
    frames,  ///< Zstandard: the games that start in the text of the whole frames in bytes [begin, end)
};

}  // namespace arbiter::face

namespace arbiter {
template <>
struct EnumNames<face::TaskKind> {
    static constexpr auto names = std::to_array<const char*>({"whole", "range", "frames"});
};
}  // namespace arbiter

namespace arbiter::face {

/// The tasks of one input, in order: each covers [begin, end) of the file.
struct InputPlan {
    std::string compression;  ///< plain, zstd, gzip or bzip2 by the first bytes; empty: could not be opened
    std::uint64_t size = 0;   ///< of the file
    TaskKind kind = TaskKind::whole;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
};

/// Plans the tasks of `path`: size / task_bytes of them (rounded up), of nearly equal size (byte
/// ranges cut evenly; groups of frames cut at the frame start nearest to an even cut), reading no more of it
/// than its first bytes and, for Zstandard, the headers of its frames and blocks (or the sizes
/// pzstd writes in skippable frames). A file that cannot be opened is one `whole` task: the worker
/// reports why, in the CLI's words.
/// A file of several Zstandard frames is cut by `frame_task_bytes` instead when it is not 0 (frames
/// hold several times their size in text).
InputPlan plan_input(const std::string& path, std::uint64_t task_bytes, std::uint64_t frame_task_bytes = 0);

/// The start of each Zstandard frame of `path` (a skippable frame counts with the frame it comes
/// before) and the size of the file; where the data stops being frames (a damaged file), the rest
/// is one last span. Reads only headers.
std::vector<std::uint64_t> zstd_frame_starts(const std::string& path, std::uint64_t size);

/// One task: which part of which input.
struct TaskSpec {
    std::string path;  ///< the file the worker opens
    std::string file;  ///< the input's name in the records and messages, as given to the client
    TaskKind kind = TaskKind::whole;
    std::uint64_t begin = 0, end = 0;
};

/// What a task read and found. Its text is the games it owns (from the first boundary anchored at
/// or after `begin`, or the file's start, to the first anchored at or after `end`, or the end of
/// the input): the texts of an input's tasks, in order, are the whole input, so the lines and
/// bytes of the tasks before one give its first line and offset in the file.
struct TaskResult {
    std::uint64_t games = 0;                   ///< games read (selected or not): the game numbers it takes
    std::uint64_t newlines = 0;                ///< in its text
    std::uint64_t bytes = 0;                   ///< of its text (decompressed)
    AuditCounts counts;                        ///< of the games --select keeps
    std::optional<arbiter::InputError> error;  ///< the read error that ended the input in this task
};

/// Audits a task: each piece of its text (about `piece_bytes`, cut at game boundaries) as
/// audit_piece does, the records (jsonl, relative positions, no game numbers; nothing with
/// `summary`) handed to `write` in order.
TaskResult run_task(const TaskSpec& spec, const audit::AuditOptions& options, const AuditFilter* filter, bool summary,
                    const std::function<void(std::string_view)>& write, std::size_t piece_bytes = std::size_t{4} << 20);

}  // namespace arbiter::face
