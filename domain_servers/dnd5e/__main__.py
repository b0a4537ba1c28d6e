import sys

from domain_servers.common.cli import main
from domain_servers.dnd5e.server import create

if __name__ == "__main__":
    sys.exit(main("dnd5e", create))
