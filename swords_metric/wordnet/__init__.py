"""WordNet 3.0 as the metric ships it: NLTK 3.5's lemmatizer re-implemented, the graph of synsets, relations (data
built by swords_dataset/builder/wordnet_morphy.py and wordnet_graph.py)."""
