"""Every game file as a reinforcement-learning environment (docs/integrations.md).

    recycle.integrations.actions     stable action ids: the same move has the same id in every state
    recycle.integrations.encoding    observation strings and tensors from what a seat may see (§17)
    recycle.integrations.openspiel   the `recycle` game type of OpenSpiel   (pip install 'recycle[openspiel]')
    recycle.integrations.pettingzoo  PettingZoo AEC and parallel environments (pip install 'recycle[pettingzoo]')

`actions` and `encoding` need nothing beyond recycle; each adapter needs its library, and importing it
without the library raises an ImportError that names the extra to install.
"""
