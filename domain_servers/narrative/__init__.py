"""System-neutral narrative domain server: scenes, threads, clocks, facts, an oracle."""
