// game_snapshot.cpp — a GameRecord as bytes and back, within one process (GameRecord::snapshot):
// the entries are copied as they are in memory, the rule set by its id, the options (their fields
// as RuleOptions::each_scalar lists them, then the extensions) and the ending found so far field
// by field. A field added to the record must be added here (the round trip in
// tests/library/game_snapshot_test.cpp compares every option and the record).
#include <cstring>
#include <type_traits>

#include "arbiter/game.hpp"

namespace arbiter {

namespace {

constexpr std::uint32_t snapshot_magic = 0x41524753;  // "ARGS"

class Writer {
public:
    template <class T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void text(std::string_view s) {
        put(static_cast<std::uint32_t>(s.size()));
        out.append(s);
    }
    std::string out;
};

class Reader {
public:
    explicit Reader(std::string_view in) : in_(in) {}
    template <class T>
    bool get(T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (in_.size() < sizeof v) return false;
        std::memcpy(&v, in_.data(), sizeof v);
        in_.remove_prefix(sizeof v);
        return true;
    }
    bool text(std::string& s) {
        std::uint32_t n = 0;
        if (!get(n) || in_.size() < n) return false;
        s.assign(in_.substr(0, n));
        in_.remove_prefix(n);
        return true;
    }
    [[nodiscard]] std::string_view rest() const { return in_; }

private:
    std::string_view in_;
};

}  // namespace

std::string GameRecord::snapshot() const {
    static_assert(std::is_trivially_copyable_v<Entry>, "entries are copied as bytes");
    if (&rule_set(rules_->id) != rules_) return {};
    Writer w;
    w.put(snapshot_magic);
    w.put(static_cast<std::uint32_t>(sizeof(Entry)));
    w.put(rules_->id);
    const RuleOptions& o = options_;
    RuleOptions::each_scalar(o, [&](const auto& field) { w.put(field); });
    w.put(static_cast<std::uint32_t>(o.fifty_extensions.size()));
    for (const auto& e : o.fifty_extensions) {
        w.text(e.signature);
        w.put(e.moves);
    }
    w.put(start_game_ply_);
    w.put(mate_check_pending_);
    w.put(termination_.has_value());
    if (termination_) {
        w.put(termination_->kind);
        w.put(static_cast<std::uint64_t>(termination_->index));
        w.text(termination_->result);
        w.text(termination_->article);
    }
    w.put(static_cast<std::uint64_t>(entries_.size()));
    w.out.append(reinterpret_cast<const char*>(entries_.data()), entries_.size() * sizeof(Entry));
    return std::move(w.out);
}

std::unique_ptr<GameRecord> GameRecord::restore(std::string_view bytes, const Unwinnability* analyzer) {
    Reader r(bytes);
    std::uint32_t magic = 0, entry_size = 0, extensions = 0;
    RuleSetId id{};
    RuleOptions o;
    if (!r.get(magic) || magic != snapshot_magic || !r.get(entry_size) || entry_size != sizeof(Entry) || !r.get(id) ||
        static_cast<std::size_t>(id) >= rule_set_count)
        return nullptr;
    bool read = true;
    RuleOptions::each_scalar(o, [&](auto& field) { read = read && r.get(field); });
    if (!read || !r.get(extensions)) return nullptr;
    for (std::uint32_t k = 0; k < extensions; ++k) {
        FiftyMoveExtension e;
        if (!r.text(e.signature) || !r.get(e.moves)) return nullptr;
        o.fifty_extensions.push_back(std::move(e));
    }
    std::uint32_t start_ply = 0;
    bool pending = false, ended = false;
    if (!r.get(start_ply) || !r.get(pending) || !r.get(ended)) return nullptr;
    std::optional<Termination> termination;
    if (ended) {
        Termination t{};
        std::uint64_t at = 0;
        if (!r.get(t.kind) || !r.get(at) || !r.text(t.result) || !r.text(t.article)) return nullptr;
        t.index = static_cast<std::size_t>(at);
        termination = std::move(t);
    }
    std::uint64_t count = 0;
    if (!r.get(count) || count == 0 || r.rest().size() != count * sizeof(Entry)) return nullptr;
    if (termination && termination->index >= count) return nullptr;

    Entry first(Position(), Move::null(), 0, 0, -1);
    std::memcpy(static_cast<void*>(&first), r.rest().data(), sizeof(Entry));
    // reset() sets the rule set, the options and the flags that follow from them; the entries and
    // the ending are then the snapshot's.
    auto record = std::make_unique<GameRecord>(first.pos, rule_set(id), std::move(o), analyzer);
    record->entries_.resize(static_cast<std::size_t>(count), first);
    std::memcpy(static_cast<void*>(record->entries_.data()), r.rest().data(), r.rest().size());
    record->start_game_ply_ = start_ply;
    record->termination_ = std::move(termination);
    record->mate_check_pending_ = pending;
    record->moves_now_valid_ = false;
    return record;
}

}  // namespace arbiter
