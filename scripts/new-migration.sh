#!/usr/bin/env bash
# Creates prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the
# schema at HEAD and the working-tree schema. `prisma migrate dev` needs a shadow database that
# the driver-adapter setup cannot create, so migrations are diffed from schema to schema.
# Usage: bash scripts/new-migration.sh add_something
set -euo pipefail
name="${1:?usage: new-migration.sh NAME}"
cd "$(dirname "$0")/.."
old=$(mktemp --suffix=.prisma)
trap 'rm -f "$old"' EXIT
git show HEAD:prisma/schema.prisma > "$old"
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
DATABASE_URL="${DATABASE_URL:-postgresql://generate-only@127.0.0.1:5432/none}" CHECKPOINT_DISABLE=1 \
  npx prisma migrate diff --from-schema-datamodel "$old" --to-schema-datamodel prisma/schema.prisma \
  --script | grep -v "^Loaded Prisma config" > "$dir/migration.sql"
echo "wrote $dir/migration.sql"
