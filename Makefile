# The two set-up commands of the README. Each installs what is missing first
# (scripts/setup.sh), so both work on a fresh machine.
.PHONY: play test setup build

# Build the wasm package and serve the playground on http://127.0.0.1:8000
play: setup build
	@scripts/serve.sh

# Every test, stopping at the first failure
test: setup
	@scripts/test.sh

setup:
	@scripts/setup.sh

build:
	@scripts/build-wasm.sh
