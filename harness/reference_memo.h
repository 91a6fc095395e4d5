// A reference's outputs kept within one harness process by (reference object, workload, seed), so
// each seed's reference runs once however many candidates are checked against it: both sides of
// an A/B, every child of a search, bench after verify (issue 22, point 9). It lives in the
// harness, beside the candidates, as the expected outputs of a single verify always have.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kblaster::harness {

// Host bytes of every output buffer, in argument order (as workload.h's OutputSnapshot).
using MemoOutputs = std::vector<std::vector<unsigned char>>;

// The workload's part of a memo key, from a `setup` request's `args`: what determines the
// reference's inputs and outputs. An argument the reference is not given (a tunable) keeps its
// place and name but not its value, since each input is filled by its position.
std::string reference_workload_key(const nlohmann::json& args);

// The memo's budget on this machine: a quarter of its physical memory, at most 16 GiB.
std::size_t reference_memo_budget();

class ReferenceMemo {
 public:
  // Keeps at most `budget_bytes` of outputs; the least recently used go first.
  explicit ReferenceMemo(std::size_t budget_bytes) : budget_(budget_bytes) {}

  // The outputs kept under `key`, marked used; nullptr when none are.
  const MemoOutputs* find(const std::string& key);
  // Keeps `outputs` under `key`, dropping the least recently used entries until they fit. Outputs
  // larger than the whole budget are not kept.
  void insert(const std::string& key, MemoOutputs outputs);

  std::size_t bytes() const { return bytes_; }
  std::size_t entries() const { return entries_.size(); }

 private:
  struct Entry {
    std::string key;
    MemoOutputs outputs;
    std::size_t bytes = 0;
  };
  std::size_t budget_;
  std::size_t bytes_ = 0;
  std::list<Entry> entries_;  // most recently used first
  std::map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace kblaster::harness
