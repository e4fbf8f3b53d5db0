"""A small recipes graph of a schema none of the service's code was written against (session 50): recipes named by
``recipeName`` with ``prepMinutes``, ``servings``, a boolean ``vegetarian`` and a ``publishedAt`` date-time as ISO
text; ingredients named by ``ingredientName`` with a categorical ``foodGroup`` and ``kcalPer100g`` as a float; chefs
named by ``chefName`` with a ``nationality``; cuisines named by ``cuisineName``; users named by ``handle``; grams on
``USES``, stars and a date on ``RATED``; two relationships between nodes of one label (an ingredient that
``CAN_REPLACE`` another, a chef ``TRAINED_UNDER`` another). 45 questions with gold Cypher written by hand before the
service was run on it; the first measurement of it is the one an unseen graph gets (reports/summary.md, session 50).

``python data/recipes/make.py`` writes ``recipes.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(57)

INGREDIENTS = {
    "Dairy": ["Butter", "Whole Milk", "Greek Yogurt", "Parmesan", "Mozzarella", "Heavy Cream", "Ricotta"],
    "Vegetable": ["Spinach", "Red Onion", "Garlic", "Carrot", "Zucchini", "Eggplant", "Bell Pepper", "Leek"],
    "Grain": ["Flour", "Basmati Rice", "Arborio Rice", "Rolled Oats", "Couscous", "Spaghetti", "Quinoa"],
    "Protein": ["Chicken Thigh", "Salmon Fillet", "Tofu", "Chickpeas", "Ground Beef", "Prawns", "Red Lentils"],
    "Spice": ["Cumin", "Smoked Paprika", "Turmeric", "Cinnamon", "Black Pepper", "Saffron"],
    "Fat": ["Olive Oil", "Coconut Oil", "Ghee", "Sesame Oil"],
}
MEAT = {"Chicken Thigh", "Salmon Fillet", "Ground Beef", "Prawns"}
REPLACE = [("Ghee", "Butter"), ("Coconut Oil", "Butter"), ("Olive Oil", "Butter"), ("Greek Yogurt", "Heavy Cream"),
           ("Ricotta", "Mozzarella"), ("Quinoa", "Couscous"), ("Tofu", "Chicken Thigh"), ("Chickpeas", "Ground Beef"),
           ("Red Lentils", "Ground Beef"), ("Sesame Oil", "Olive Oil"), ("Basmati Rice", "Arborio Rice")]  # fmt: skip
CUISINES = ["Italian", "Indian", "Moroccan", "Japanese", "Mexican", "Greek", "Thai"]
NATIONS = ["Italy", "India", "France", "Japan", "Mexico", "Lebanon"]
CF = "Aurelia Bastien Chiara Dmitri Esme Farid Giulia Haruto Imani Joaquin Keiko Luca Meera Nikos".split()
CL = "Bellini Okafor Marchetti Varga Sato Haddad Ferreira Lindqvist Rao Castell Moreno Petrakis".split()
DISH = "Stew Risotto Curry Tagine Salad Bake Soup Skillet Bowl Gratin Pilaf Tart".split()
MOD = "Smoky Golden Rustic Spiced Creamy Lemony Herbed Roasted Sunday Midnight Garden Harbor Velvet Fiery".split()

L: list[str] = []
for c in CUISINES:
    L.append(f"CREATE (:Cuisine {{cuisineName: {q(c)}}});")
group_of = {}
for g, names in INGREDIENTS.items():
    for n in names:
        group_of[n] = g
        L.append(
            f"CREATE (:Ingredient {{ingredientName: {q(n)}, foodGroup: {q(g)}, kcalPer100g: {round(rng.uniform(5, 880), 1)}}});"
        )
for a, b in REPLACE:
    L.append(
        f"MATCH (a:Ingredient {{ingredientName: {q(a)}}}), (b:Ingredient {{ingredientName: {q(b)}}}) CREATE (a)-[:CAN_REPLACE]->(b);"
    )
chefs = []
for i in range(14):
    n = f"{CF[i]} {CL[(i * 5) % 12]}"
    chefs.append(dict(name=n, nation=rng.choice(NATIONS)))
    L.append(f"CREATE (:Chef {{chefName: {q(n)}, nationality: {q(chefs[-1]['nation'])}}});")
for i in range(4, 14):
    mentor = chefs[rng.randint(0, 3)]
    chefs[i]["mentor"] = mentor["name"]
    L.append(
        f"MATCH (a:Chef {{chefName: {q(chefs[i]['name'])}}}), (b:Chef {{chefName: {q(mentor['name'])}}}) CREATE (a)-[:TRAINED_UNDER]->(b);"
    )
all_ings = [n for names in INGREDIENTS.values() for n in names]
recipes = []
used: set[str] = set()
while len(recipes) < 90:
    n = f"{rng.choice(MOD)} {rng.choice(all_ings).split()[-1]} {rng.choice(DISH)}"
    if n in used:
        continue
    used.add(n)
    ings = rng.sample(all_ings, rng.randint(3, 7))
    r = dict(
        name=n,
        minutes=rng.choice([10, 15, 20, 25, 30, 40, 45, 60, 75, 90, 120]),
        servings=rng.randint(1, 8),
        veg=not (set(ings) & MEAT),
        published=f"{rng.randint(2018, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(6, 22):02d}:{rng.choice(['00', '15', '30', '45'])}:00",
        chef=rng.choice(chefs)["name"],
        cuisine=rng.choice(CUISINES),
        ings={x: rng.choice([5, 10, 25, 50, 100, 150, 200, 250, 300, 400, 500]) for x in ings},
    )
    recipes.append(r)
    L.append(
        f"CREATE (:Recipe {{recipeName: {q(n)}, prepMinutes: {r['minutes']}, servings: {r['servings']}, vegetarian: {str(r['veg']).lower()}, publishedAt: {q(r['published'])}}});"
    )
    L.append(
        f"MATCH (c:Chef {{chefName: {q(r['chef'])}}}), (r:Recipe {{recipeName: {q(n)}}}) CREATE (c)-[:CREATED]->(r);"
    )
    L.append(
        f"MATCH (r:Recipe {{recipeName: {q(n)}}}), (c:Cuisine {{cuisineName: {q(r['cuisine'])}}}) CREATE (r)-[:OF_CUISINE]->(c);"
    )
    for x, grams in r["ings"].items():
        L.append(
            f"MATCH (r:Recipe {{recipeName: {q(n)}}}), (i:Ingredient {{ingredientName: {q(x)}}}) CREATE (r)-[:USES {{grams: {grams}}}]->(i);"
        )
users = [f"{a}{b}" for a in ["chef", "foodie", "home", "spoon", "pan"] for b in ["_ana", "_bo", "_cy", "_dee", "_eli", "_fox", "_gus", "_hal"]]
ratings = set()
for u in users:
    L.append(f"CREATE (:User {{handle: {q(u)}}});")
for k in range(420):
    u, r = rng.choice(users), rng.choice(recipes[:80])
    if (u, r["name"]) in ratings:
        continue
    ratings.add((u, r["name"]))
    L.append(
        f"MATCH (u:User {{handle: {q(u)}}}), (r:Recipe {{recipeName: {q(r['name'])}}}) CREATE (u)-[:RATED {{stars: {rng.randint(1, 5)}, ratedOn: '{rng.randint(2020, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}'}}]->(r);"
    )

# the things the questions name, picked from what was written
r1, r2, r3 = recipes[3], recipes[11], recipes[27]
chef = chefs[6]["name"]
mentor = chefs[6]["mentor"]
teacher = chefs[1]["name"]
rater = sorted(ratings)[5][0]
both = sorted(recipes[40]["ings"])[:2]
Q = [
    (f"Which ingredients does {r1['name']} use?", f"MATCH (:Recipe {{recipeName: {q(r1['name'])}}})-[:USES]->(i:Ingredient) RETURN i.ingredientName"),
    (f"How long does {r2['name']} take to prepare?", f"MATCH (r:Recipe {{recipeName: {q(r2['name'])}}}) RETURN r.prepMinutes"),
    (f"Who created {r1['name']}?", f"MATCH (c:Chef)-[:CREATED]->(:Recipe {{recipeName: {q(r1['name'])}}}) RETURN c.chefName"),
    (f"How many recipes has {chef} created?", f"MATCH (:Chef {{chefName: {q(chef)}}})-[:CREATED]->(r:Recipe) RETURN count(r)"),
    ("Which ingredients can replace butter?", "MATCH (i:Ingredient)-[:CAN_REPLACE]->(:Ingredient {ingredientName: 'Butter'}) RETURN i.ingredientName"),
    (f"Under which chef did {chef} train?", f"MATCH (:Chef {{chefName: {q(chef)}}})-[:TRAINED_UNDER]->(m:Chef) RETURN m.chefName"),
    (f"Which chefs trained under {teacher}?", f"MATCH (c:Chef)-[:TRAINED_UNDER]->(:Chef {{chefName: {q(teacher)}}}) RETURN c.chefName"),
    ("List the vegetarian recipes that take at most 20 minutes.", "MATCH (r:Recipe) WHERE r.vegetarian = true AND r.prepMinutes <= 20 RETURN r.recipeName"),
    ("How many vegetarian recipes are there?", "MATCH (r:Recipe) WHERE r.vegetarian = true RETURN count(r)"),
    ("Which ingredients are in the Dairy food group?", "MATCH (i:Ingredient {foodGroup: 'Dairy'}) RETURN i.ingredientName"),
    ("Which cuisine has the most recipes?", "MATCH (r:Recipe)-[:OF_CUISINE]->(c:Cuisine) RETURN c.cuisineName, count(r) AS n ORDER BY n DESC LIMIT 1"),
    ("How many recipes does each cuisine have?", "MATCH (r:Recipe)-[:OF_CUISINE]->(c:Cuisine) RETURN c.cuisineName, count(r)"),
    ("Which recipes were published in 2021?", "MATCH (r:Recipe) WHERE r.publishedAt STARTS WITH '2021' RETURN r.recipeName"),
    (f"How many ratings has {r3['name']} received?", f"MATCH (:User)-[r:RATED]->(:Recipe {{recipeName: {q(r3['name'])}}}) RETURN count(r)"),
    (f"What is the average star rating of {r3['name']}?", f"MATCH (:User)-[r:RATED]->(:Recipe {{recipeName: {q(r3['name'])}}}) RETURN avg(r.stars)"),
    (f"How many grams of {list(r1['ings'])[0]} does {r1['name']} use?", f"MATCH (:Recipe {{recipeName: {q(r1['name'])}}})-[u:USES]->(:Ingredient {{ingredientName: {q(list(r1['ings'])[0])}}}) RETURN u.grams"),
    ("Which recipes use more than 300 grams of flour?", "MATCH (r:Recipe)-[u:USES]->(:Ingredient {ingredientName: 'Flour'}) WHERE u.grams > 300 RETURN r.recipeName"),
    ("Which recipes use flour?", "MATCH (r:Recipe)-[:USES]->(:Ingredient {ingredientName: 'Flour'}) RETURN r.recipeName"),
    ("What are the 3 quickest recipes?", "MATCH (r:Recipe) RETURN r.recipeName, r.prepMinutes ORDER BY r.prepMinutes ASC LIMIT 3"),
    ("Which ingredient has the most calories per 100 grams?", "MATCH (i:Ingredient) RETURN i.ingredientName ORDER BY i.kcalPer100g DESC LIMIT 1"),
    ("Which ingredient is used in the most recipes?", "MATCH (r:Recipe)-[:USES]->(i:Ingredient) RETURN i.ingredientName, count(r) AS n ORDER BY n DESC LIMIT 1"),
    ("Which chefs are from Italy?", "MATCH (c:Chef {nationality: 'Italy'}) RETURN c.chefName"),
    (f"Which cuisine is {r2['name']}?", f"MATCH (:Recipe {{recipeName: {q(r2['name'])}}})-[:OF_CUISINE]->(c:Cuisine) RETURN c.cuisineName"),
    ("Which Indian recipes are vegetarian?", "MATCH (r:Recipe)-[:OF_CUISINE]->(:Cuisine {cuisineName: 'Indian'}) WHERE r.vegetarian = true RETURN r.recipeName"),
    (f"Which recipes has {rater} rated?", f"MATCH (:User {{handle: {q(rater)}}})-[:RATED]->(r:Recipe) RETURN r.recipeName"),
    (f"Which recipes did {rater} rate 5 stars?", f"MATCH (:User {{handle: {q(rater)}}})-[x:RATED]->(r:Recipe) WHERE x.stars = 5 RETURN r.recipeName"),
    ("Which recipes have never been rated?", "MATCH (r:Recipe) WHERE NOT ()-[:RATED]->(r) RETURN r.recipeName"),
    (f"How many servings does {r1['name']} make?", f"MATCH (r:Recipe {{recipeName: {q(r1['name'])}}}) RETURN r.servings"),
    ("What is the average preparation time of Moroccan recipes?", "MATCH (r:Recipe)-[:OF_CUISINE]->(:Cuisine {cuisineName: 'Moroccan'}) RETURN avg(r.prepMinutes)"),
    (f"Which cuisines has {chef} cooked?", f"MATCH (:Chef {{chefName: {q(chef)}}})-[:CREATED]->(:Recipe)-[:OF_CUISINE]->(c:Cuisine) RETURN DISTINCT c.cuisineName"),
    ("Which chefs have created Thai recipes?", "MATCH (c:Chef)-[:CREATED]->(:Recipe)-[:OF_CUISINE]->(:Cuisine {cuisineName: 'Thai'}) RETURN DISTINCT c.chefName"),
    (f"Which recipes use both {both[0].lower()} and {both[1].lower()}?", f"MATCH (:Ingredient {{ingredientName: {q(both[0])}}})<-[:USES]-(r:Recipe)-[:USES]->(:Ingredient {{ingredientName: {q(both[1])}}}) RETURN r.recipeName"),
    ("List all cuisines.", "MATCH (c:Cuisine) RETURN c.cuisineName"),
    ("Which chef has created the most recipes?", "MATCH (c:Chef)-[:CREATED]->(r:Recipe) RETURN c.chefName, count(r) AS n ORDER BY n DESC LIMIT 1"),
    ("Which recipes serve more than 6 people?", "MATCH (r:Recipe) WHERE r.servings > 6 RETURN r.recipeName"),
    ("What are the 5 most recently published recipes?", "MATCH (r:Recipe) RETURN r.recipeName ORDER BY r.publishedAt DESC LIMIT 5"),
    (f"When was {r2['name']} published?", f"MATCH (r:Recipe {{recipeName: {q(r2['name'])}}}) RETURN r.publishedAt"),
    ("What food group does Quinoa belong to?", "MATCH (i:Ingredient {ingredientName: 'Quinoa'}) RETURN i.foodGroup"),
    ("How many ingredients are in the Spice food group?", "MATCH (i:Ingredient {foodGroup: 'Spice'}) RETURN count(i)"),
    (f"What is the total weight in grams of the ingredients of {r2['name']}?", f"MATCH (:Recipe {{recipeName: {q(r2['name'])}}})-[u:USES]->(:Ingredient) RETURN sum(u.grams)"),
    ("Which chefs have created more than 8 recipes?", "MATCH (c:Chef)-[:CREATED]->(r:Recipe) WITH c, count(r) AS n WHERE n > 8 RETURN c.chefName"),
    ("Which recipes take between 40 and 60 minutes?", "MATCH (r:Recipe) WHERE r.prepMinutes >= 40 AND r.prepMinutes <= 60 RETURN r.recipeName"),
    ("Which users gave a recipe 1 star?", "MATCH (u:User)-[r:RATED]->(:Recipe) WHERE r.stars = 1 RETURN DISTINCT u.handle"),
    (f"Which ingredients of {r3['name']} are vegetables?", f"MATCH (:Recipe {{recipeName: {q(r3['name'])}}})-[:USES]->(i:Ingredient {{foodGroup: 'Vegetable'}}) RETURN i.ingredientName"),
    ("Which French chefs have created Greek recipes?", "MATCH (c:Chef {nationality: 'France'})-[:CREATED]->(:Recipe)-[:OF_CUISINE]->(:Cuisine {cuisineName: 'Greek'}) RETURN DISTINCT c.chefName"),
]
write(HERE, "recipes", L, Q)
