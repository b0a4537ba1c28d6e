import sys

from domain_servers.common.cli import main
from domain_servers.narrative.server import create

if __name__ == "__main__":
    sys.exit(main("narrative", create))
