// pipeline_shims.cpp — Python's audit of whole inputs (arbiter/_audit.py: audit, audit_lines,
// audit_frame): AuditRun runs the face core's AuditPipeline, the driver of `arbiter audit`
// (face_core/audit/audit_pipeline.hpp), on a thread of its own with the GIL released, and hands
// its records to Python through a bounded queue (RecordQueue) that a generator takes them from.
// The inputs are read on the pipeline's thread: paths and bytes in C++, a Python file object
// through its read() with the GIL taken. Closing the run stops the pipeline and joins its threads.
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arbiter/input.hpp"
#include "audit/audit_pipeline.hpp"
#include "shims.hpp"

namespace arbiter::python {

namespace {

// A Python object held by C++ threads that run without the GIL: let go with the GIL taken.
class Held {
public:
    explicit Held(py::object o) : o_(std::move(o)) {}
    ~Held() {
        py::gil_scoped_acquire gil;
        o_ = py::object();
    }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    [[nodiscard]] const py::object& get() const { return o_; }

private:
    py::object o_;
};

// The records of a run on their way to Python, in input order, with the read errors among them.
// At most `limit` records (or `byte_limit` bytes of them) wait: the pipeline waits for the
// consumer beyond that, so a slow consumer slows the audit and memory stays bounded.
class RecordQueue final : public face::AuditSink {
public:
    static constexpr std::size_t limit = 1024, byte_limit = std::size_t{8} << 20;
    struct Item {
        std::string line;  // a jsonl record with its numbers (empty with `error`)
        std::optional<InputError> error;
        bool opened = true;
    };
    enum class Took { items, nothing_yet, end };

    void record(std::uint64_t game, std::uint64_t game_in_file, const std::string& text) override {
        Item item;
        face::number_records(text, game, game_in_file, item.line);
        push(std::move(item));
    }
    void pgn(std::string_view) override {}
    void input_failed(const InputError& error, bool opened) override { push(Item{{}, error, opened}); }
    void end(std::uint64_t) override {}

    // The pipeline's thread is done: with the exception that ended it, if one did.
    void finish(std::exception_ptr error) {
        std::lock_guard lock(mu_);
        finished_ = true;
        error_ = std::move(error);
        items_cv_.notify_all();
    }
    // The consumer is gone: the pipeline's next record throws AuditStopped (and stops it).
    void cancel() {
        std::lock_guard lock(mu_);
        cancelled_ = true;
        space_cv_.notify_all();
    }
    // Waits up to `wait` for records; moves those waiting into `out`, up to the first read error
    // (included). `end` once the pipeline finished and every record was taken.
    Took take(std::vector<Item>& out, std::chrono::milliseconds wait) {
        std::unique_lock lock(mu_);
        items_cv_.wait_for(lock, wait, [this] { return !items_.empty() || finished_; });
        if (items_.empty()) return finished_ ? Took::end : Took::nothing_yet;
        while (!items_.empty()) {
            const bool error = items_.front().error.has_value();
            bytes_ -= items_.front().line.size();
            out.push_back(std::move(items_.front()));
            items_.pop_front();
            if (error) break;
        }
        space_cv_.notify_all();
        return Took::items;
    }
    std::exception_ptr error() {
        std::lock_guard lock(mu_);
        return std::exchange(error_, nullptr);
    }
    py::dict stats() {
        std::lock_guard lock(mu_);
        py::dict d;
        d["records_waiting"] = items_.size();
        d["records_waiting_peak"] = peak_;
        d["records_limit"] = limit;
        d["consumer_waits"] = waits_;  // times the pipeline waited for the consumer to take records
        return d;
    }

private:
    void push(Item item) {
        std::unique_lock lock(mu_);
        if (!cancelled_ && !room()) {
            ++waits_;
            space_cv_.wait(lock, [this] { return room() || cancelled_; });
        }
        if (cancelled_) throw face::AuditStopped{};
        bytes_ += item.line.size();
        items_.push_back(std::move(item));
        peak_ = std::max<std::uint64_t>(peak_, items_.size());
        if (items_.size() == 1) items_cv_.notify_all();
    }
    [[nodiscard]] bool room() const { return items_.size() < limit && bytes_ < byte_limit; }

    std::mutex mu_;
    std::condition_variable items_cv_, space_cv_;
    std::deque<Item> items_;
    std::size_t bytes_ = 0;
    std::uint64_t peak_ = 0, waits_ = 0;
    bool finished_ = false, cancelled_ = false;
    std::exception_ptr error_;
};

// The bytes a Python file object's read() gives (a str encoded as UTF-8 with surrogateescape, as
// the package reads text), run with the GIL taken; an empty string at its end. A ReadError it
// raises ends the input as a read error does; any other exception ends the audit.
Expected<std::string, InputError> read_chunk(const Held& file) {
    constexpr std::size_t read_size = std::size_t{1} << 18;
    py::gil_scoped_acquire gil;
    py::object data;
    try {
        data = file.get().attr("read")(read_size);
    } catch (py::error_already_set& e) {
        if (!e.matches(py::module_::import("arbiter._errors").attr("ReadError"))) throw;
        // As the old piece reader carried it: code, path, offset and the message after the path.
        const py::tuple t = py::module_::import("arbiter._audit").attr("error_tuple")(e.value());
        const auto code = parse_enum<InputError::Code>(t[0].cast<std::string>());
        return Unexpected(InputError{code.value_or(InputError::Code::read_failed), t[1].cast<std::string>(),
                                     t[2].cast<std::uint64_t>(), t[3].cast<std::string>()});
    }
    if (data.is_none()) return std::string();
    if (py::isinstance<py::str>(data)) {
        data = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(data.ptr(), "utf-8", "surrogateescape"));
        if (!data) throw py::error_already_set();
    }
    if (!py::isinstance<py::bytes>(data))
        throw py::type_error("source: read() gave a " +
                             std::string(py::str(py::type::handle_of(data).attr("__name__"))) +
                             ", expected bytes or str");
    return data.cast<std::string>();
}

// An input of `_audit._sources`: (name, None) for a path, (name, bytes), or (name, a file object).
face::AuditInput input_of(const py::handle& item) {
    const auto t = py::reinterpret_borrow<py::tuple>(item);
    face::AuditInput in{t[0].cast<std::string>(), {}};
    const py::object src = t[1];
    if (src.is_none()) return in;  // a path: open_input
    if (py::isinstance<py::bytes>(src)) {
        in.open = [data = src.cast<std::string>(),
                   name = in.name]() mutable -> Expected<std::unique_ptr<ByteSource>, InputError> {
            return face::owned_memory_input(std::move(data), name);
        };
        return in;
    }
    auto file = std::make_shared<Held>(src);
    in.open = [file, name = in.name]() -> Expected<std::unique_ptr<ByteSource>, InputError> {
        return face::chunk_input(name, [file] { return read_chunk(*file); });
    };
    return in;
}

// The audit of an entry point (arbiter/_audit.py), started at the first take().
class AuditRun {
public:
    AuditRun(const py::object& sources, const py::object& options, unsigned threads, std::uint64_t chunk_games,
             bool stop_at_read_error)
        : sources_(std::make_shared<Held>(py::iter(sources))), threads_(threads) {
        const AuditSetup setup = audit_setup(options);
        cfg_.format = face::AuditFormat::jsonl;
        cfg_.options = setup.options;
        cfg_.filter = setup.filter;
        cfg_.batch_games = chunk_games;
        cfg_.stop_at_read_error = stop_at_read_error;
        pipeline_ = std::make_unique<face::AuditPipeline>(cfg_, queue_, threads_, false, [sources = sources_] {
            py::gil_scoped_acquire gil;
            PyObject* next = PyIter_Next(sources->get().ptr());
            if (!next) {
                if (PyErr_Occurred()) throw py::error_already_set();
                return std::optional<face::AuditInput>();
            }
            const auto item = py::reinterpret_steal<py::object>(next);
            return std::optional(input_of(item));
        });
    }
    ~AuditRun() { close(); }
    AuditRun(const AuditRun&) = delete;
    AuditRun& operator=(const AuditRun&) = delete;

    // The next records: (lines, error) — jsonl lines (bytes, numbered) up to the next read error,
    // and that error (a ReadError) or None; None at the end. An exception that ended the pipeline
    // (one a source raised, say) is raised after the records before it.
    py::object take() {
        if (done_) return py::none();
        start();
        std::vector<RecordQueue::Item> items;
        for (;;) {
            RecordQueue::Took took;
            {
                py::gil_scoped_release unlocked;
                took = queue_.take(items, std::chrono::milliseconds(100));
            }
            if (took == RecordQueue::Took::items) break;
            if (took == RecordQueue::Took::end) return end();
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C while waiting
        }
        py::list lines;
        py::object error = py::none();
        for (auto& item : items) {
            if (item.error)
                error = item.opened ? read_error_object(*item.error)
                                    : core_exception(face::InputError(item.error->code, item.error->describe(),
                                                                      item.error->path, item.error->offset));
            else
                lines.append(py::bytes(item.line));
        }
        return py::make_tuple(lines, error);
    }

    // Stops the pipeline (if it runs) and joins its thread; the GIL is released meanwhile, so a
    // read of a Python source in progress can finish.
    void close() {
        done_ = true;
        if (!thread_.joinable()) return;
        py::gil_scoped_release unlocked;
        queue_.cancel();
        pipeline_->stop();
        thread_.join();
    }

    [[nodiscard]] bool no_games() const { return finished_ && pipeline_->no_games(); }

    py::dict stats() {
        py::dict d = queue_.stats();
        std::uint64_t peak = 0, bytes = 0;
        {
            py::gil_scoped_release unlocked;
            peak = pipeline_->peak_in_flight();
            bytes = pipeline_->bytes();
        }
        d["batches_in_flight_peak"] = peak;
        d["batches_in_flight_limit"] = face::AuditPipeline::in_flight_limit(threads_);
        d["bytes_read"] = bytes;
        d["running"] = thread_.joinable();
        return d;
    }

private:
    void start() {
        if (started_) return;
        started_ = true;
        thread_ = std::thread([this] {
            std::exception_ptr error;
            try {
                pipeline_->run();
            } catch (const face::AuditStopped&) {
            } catch (...) {
                error = std::current_exception();
            }
            queue_.finish(error);
        });
    }

    py::object end() {
        done_ = true;
        {
            py::gil_scoped_release unlocked;
            thread_.join();
        }
        finished_ = true;
        if (const auto error = queue_.error()) {
            try {
                std::rethrow_exception(error);
            } catch (const face::InputError& e) {
                raise_core(e);
            }
        }
        return py::none();
    }

    std::shared_ptr<Held> sources_;
    unsigned threads_;
    face::AuditConfig cfg_;
    RecordQueue queue_;
    std::unique_ptr<face::AuditPipeline> pipeline_;
    std::thread thread_;
    bool started_ = false, done_ = false, finished_ = false;
};

}  // namespace

void bind_pipeline(py::module_& m) {
    py::class_<AuditRun>(m, "AuditRun")
        .def(py::init<const py::object&, const py::object&, unsigned, std::uint64_t, bool>(), py::arg("sources"),
             py::arg("options"), py::arg("threads"), py::arg("chunk_games") = 0, py::arg("stop_at_read_error") = true)
        .def("take", &AuditRun::take,
             "The next records: (lines, error) up to and with the next read error, or None at the end.")
        .def("close", &AuditRun::close, "Stops the pipeline and joins its threads.")
        .def_property_readonly("no_games", &AuditRun::no_games)
        .def("stats", &AuditRun::stats, "Counters of the run: batches in flight, records waiting, bytes read.");
}

}  // namespace arbiter::python
