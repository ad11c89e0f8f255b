"""WordNet 3.0 as the metric ships it: NLTK 3.5's lemmatizer re-implemented (lemmatizer.py, data built by
morphy_data.py), the graph of synsets (graph.py, built by graph_data.py) and a substitute's relation to its target
(relations.py)."""
