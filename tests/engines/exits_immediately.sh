#!/bin/sh
# An engine that exits before saying anything.
exit 3
