"""A Nuitka user plugin (`--user-plugin=`, added by build.py) that turns a
compiled Python program into a Pitboss bot: it links pitboss_shim.c (the
ABI exports) and makes Nuitka's main() return instead of exiting
(nuitka_init_program.h)."""

import os

from nuitka.plugins.PluginBase import NuitkaPluginBase

HERE = os.path.dirname(os.path.abspath(__file__))


class PitbossPlugin(NuitkaPluginBase):
    plugin_name = "pitboss"
    plugin_desc = "Exports the Pitboss bot ABI from a Python program."

    @staticmethod
    def isAlwaysEnabled():
        return True

    def getPreprocessorSymbols(self):
        return {"_NUITKA_EXPERIMENTAL_INIT_PROGRAM": "1"}

    def getExtraIncludeDirectories(self):
        return [HERE]

    def getExtraCodeFiles(self):
        with open(os.path.join(HERE, "pitboss_shim.c"), encoding="utf-8") as f:
            return {"pitboss_shim.c": f.read()}
