# SPDX-License-Identifier: BSD-2-Clause
# bench-programs (bench/programs/run.py): real programs (sort, Python, zstd,
# git, sqlite3) timed with and without the LD_PRELOAD drop-in in
# alternating pairs; prints each ratio with its spread and checks that the
# outputs are identical.  It times things, so it is not part of `make test`,
# which only checks that the script parses and lists its programs.
#   make bench-programs [BENCH_PROGRAMS_ARGS="--cpu 1 --pairs 10 --only sort,git"]
BENCH_PROGRAMS_ARGS ?=
.PHONY: bench-programs
bench-programs: $(PRELOAD_SO)
	python3 bench/programs/run.py --preload $(PRELOAD_SO) $(BENCH_PROGRAMS_ARGS)
test-extra::
	@if command -v python3 >/dev/null; then \
	    python3 bench/programs/run.py --dry-run | grep -q '^would run' && echo "bench-programs --dry-run: 1 passed, 0 failed"; \
	else echo "bench-programs: python3 missing, dry run skipped"; fi
