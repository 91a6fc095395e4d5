#include "reference_memo.h"

#include <unistd.h>

#include <algorithm>

namespace kblaster::harness {

std::string reference_workload_key(const nlohmann::json& args) {
  nlohmann::json seen = nlohmann::json::array();
  for (const auto& a : args) {
    nlohmann::json kept = a;
    if (!a.value("to_reference", true)) kept.erase("value");
    seen.push_back(std::move(kept));
  }
  return seen.dump();
}

std::size_t reference_memo_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const std::size_t physical =
      pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
  return std::min<std::size_t>(physical / 4, std::size_t{16} << 30);
}

const MemoOutputs* ReferenceMemo::find(const std::string& key) {
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it->second);
  return &it->second->outputs;
}

void ReferenceMemo::insert(const std::string& key, MemoOutputs outputs) {
  std::size_t size = 0;
  for (const auto& o : outputs) size += o.size();
  if (auto it = index_.find(key); it != index_.end()) {
    bytes_ -= it->second->bytes;
    entries_.erase(it->second);
    index_.erase(it);
  }
  if (size > budget_) return;
  while (bytes_ + size > budget_ && !entries_.empty()) {
    bytes_ -= entries_.back().bytes;
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
  entries_.push_front({key, std::move(outputs), size});
  index_[key] = entries_.begin();
  bytes_ += size;
}

}  // namespace kblaster::harness
