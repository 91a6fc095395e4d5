#include "profile/ncu_csv.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace kblaster {
namespace {

// One CSV record and the physical line it starts on.
struct Record {
  std::vector<std::string> cells;
  int line = 0;
};

// Reads RFC 4180 records: quoted cells may hold commas, doubled quotes and
// newlines. `pos` and `line` advance past the record.
Result<Record> read_record(std::string_view text, size_t& pos, int& line,
                           const std::string& origin) {
  Record record{{std::string()}, line};
  bool quoted = false;
  while (pos < text.size()) {
    char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        record.cells.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        record.cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.cells.emplace_back();
    } else if (c == '\n') {
      ++line;
      break;
    } else if (c != '\r') {
      record.cells.back() += c;
    }
  }
  if (quoted)
    return Error::config(origin + ":" + std::to_string(record.line),
                         "unterminated quoted cell in ncu CSV");
  return record;
}

// The whole physical line at `pos`, without its end.
std::string_view physical_line(std::string_view text, size_t pos) {
  size_t end = text.find('\n', pos);
  std::string_view l = text.substr(pos, end == std::string_view::npos ? end : end - pos);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

// ncu's header starts with the quoted "ID" cell and names the kernel column.
bool is_header(std::string_view line) {
  return line.starts_with("\"ID\",") && line.find("\"Kernel Name\"") != std::string_view::npos;
}

int column(const std::vector<std::string>& header, std::string_view name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

// "231,840" -> 231840, "91.23" -> 91.23; unset for "n/a", text and "(256, 1, 1)".
std::optional<double> parse_number(std::string_view cell) {
  auto digit = [&](size_t i) { return i < cell.size() && std::isdigit(uint8_t(cell[i])) != 0; };
  std::string plain;
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] != ',') {
      plain += cell[i];
      continue;
    }
    // A thousands separator sits between a digit and a group of three digits.
    size_t after = i + 4;
    bool grouped = i > 0 && digit(i - 1) && digit(i + 1) && digit(i + 2) && digit(i + 3) &&
                   (after == cell.size() || cell[after] == ',' || cell[after] == '.');
    if (!grouped) return std::nullopt;
  }
  double value = 0.0;
  const char* end = plain.data() + plain.size();
  auto [ptr, ec] = std::from_chars(plain.data(), end, value);
  if (plain.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The value of `metric` in the row at `where`: a NaN, infinite or negative number
// is a config error, since ncu prints none, and a state read from one would be made up.
Result<NcuValue> make_value(const std::string& cell, const std::string& unit,
                            const std::string& metric, const std::string& where) {
  NcuValue value{parse_number(cell), unit, cell};
  if (value.number && (!std::isfinite(*value.number) || *value.number < 0.0))
    return Error::config(where, "metric `" + metric + "` has the value `" + cell +
                                    "`; ncu reports no NaN, infinite or negative values, so "
                                    "the CSV is damaged or was edited");
  return value;
}

// The launch a row belongs to: the last one while its process and ID repeat
// (a details page lists a launch's metrics together), else a new one.
NcuKernel& kernel_for(std::vector<NcuKernel>& kernels, std::string& last_launch,
                      const std::vector<std::string>& cells, int pid, int id, int name, int block,
                      int grid) {
  std::string launch = (pid >= 0 ? cells[pid] : std::string()) + "/" + cells[id];
  if (kernels.empty() || launch != last_launch) {
    last_launch = launch;
    NcuKernel k;
    k.id = cells[id];
    k.name = cells[name];
    if (block >= 0 && block < static_cast<int>(cells.size())) k.block_size = cells[block];
    if (grid >= 0 && grid < static_cast<int>(cells.size())) k.grid_size = cells[grid];
    kernels.push_back(std::move(k));
  }
  return kernels.back();
}

}  // namespace

Result<std::vector<NcuKernel>> parse_ncu_csv(std::string_view csv, const std::string& origin) {
  size_t pos = 0;
  int line = 1;
  while (pos < csv.size() && !is_header(physical_line(csv, pos))) {
    size_t end = csv.find('\n', pos);
    pos = end == std::string_view::npos ? csv.size() : end + 1;
    ++line;
  }
  if (pos >= csv.size())
    return Error::config(origin + ":" + std::to_string(std::max(1, line - 1)),
                         "no ncu CSV header (a line starting \"ID\",…,\"Kernel Name\") found");
  Result<Record> head = read_record(csv, pos, line, origin);
  KB_TRY(head);
  const std::vector<std::string> header = head->cells;

  const int id = column(header, "ID"), name = column(header, "Kernel Name");
  const int pid = column(header, "Process ID");
  const int block = column(header, "Block Size"), grid = column(header, "Grid Size");
  const int section = column(header, "Section Name"), metric = column(header, "Metric Name");
  const int unit = column(header, "Metric Unit"), value = column(header, "Metric Value");
  if (id < 0 || name < 0)  // is_header saw the names, but not as whole cells
    return Error::config(origin + ":" + std::to_string(head->line),
                         "the ncu CSV header has no \"ID\" and \"Kernel Name\" columns");
  const bool details = metric >= 0 && value >= 0;
  // Cells a details row must reach; later ones (the rule columns) ncu leaves off.
  int needed = std::max({id, name, pid}) + 1;
  if (details) needed = std::max({needed, section + 1, metric + 1, unit + 1, value + 1});

  std::vector<NcuKernel> kernels;
  std::string last_launch;
  std::vector<std::string> units(header.size());
  while (pos < csv.size()) {
    std::string_view raw = physical_line(csv, pos);
    if (raw.empty() || raw.starts_with("==") || is_header(raw)) {
      size_t end = csv.find('\n', pos);  // blank, banner or repeated header
      pos = end == std::string_view::npos ? csv.size() : end + 1;
      ++line;
      continue;
    }
    Result<Record> rec = read_record(csv, pos, line, origin);
    KB_TRY(rec);
    std::vector<std::string>& cells = rec->cells;
    const std::string where = origin + ":" + std::to_string(rec->line);
    if (cells.size() > header.size() || static_cast<int>(cells.size()) < needed ||
        (!details && cells.size() != header.size()))
      return Error::config(where, "ncu CSV row has " + std::to_string(cells.size()) +
                                      " cells, the header has " + std::to_string(header.size()));
    if (cells[id].empty()) {  // the raw page's units row
      if (!details) units = cells;
      continue;
    }
    NcuKernel& kernel = kernel_for(kernels, last_launch, cells, pid, id, name, block, grid);
    if (details) {
      if (cells[metric].empty()) continue;  // a rule result, not a metric
      std::string key = cells[metric];
      if (section >= 0 && cells[section] != "Command line profiler metrics")
        key = cells[section] + ": " + key;
      auto read = make_value(cells[value], unit >= 0 ? cells[unit] : "", cells[metric], where);
      KB_TRY(read);
      kernel.metrics[key] = std::move(*read);
      continue;
    }
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i].find("__") == std::string::npos) continue;  // raw names are unit__counter…
      auto read = make_value(cells[i], units[i], header[i], where);
      KB_TRY(read);
      kernel.metrics[header[i]] = std::move(*read);
    }
  }
  return kernels;
}

}  // namespace kblaster
