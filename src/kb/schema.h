// The KB's versioned schema: an ordered list of migrations, one per version, and
// the step that brings a file up to date. The version lives in PRAGMA user_version.
#pragma once

#include <span>
#include <string_view>

#include "core/status.h"
#include "kb/sqlite.h"

namespace kblaster {

// Migration `version` takes a file from version-1 to `version`.
struct Migration {
  int version;
  std::string_view sql;
};

// All migrations, in order; versions are 1, 2, ... without gaps.
std::span<const Migration> schema_migrations();
int latest_schema_version();

// Reads PRAGMA user_version.
Result<int> schema_version(const Database& db);

// Applies each missing migration in its own IMMEDIATE transaction, so a kill leaves
// the file at a whole version; safe against a concurrent migrator. A file newer
// than latest_schema_version() is an Error::io naming both versions and `name`.
Status migrate(const Database& db, std::string_view name);

}  // namespace kblaster
