"""WordNet 3.0 as the metric ships it: NLTK 3.5's lemmatizer re-implemented (lemmatizer.py), the graph of synsets
(graph.py) and a substitute's relation to its target (relations.py); their data is built by
swords_dataset/builder/wordnet_morphy.py and wordnet_graph.py."""
