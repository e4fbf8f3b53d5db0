"""A small city-transit graph of a schema none of the service's code was written against (session 58): lines by a
code ``lineCode`` ("M1", "B12": letters and digits) with a categorical ``mode`` and ``color``; stations by
``stationName`` with an integer ``zone``, a boolean ``accessible`` and an ``opened`` year; districts by
``districtName`` with an integer ``population``; operators by ``operatorName``; vehicles by ``fleetNo`` ("V-214") with
an integer ``capacity`` and ``builtYear``; incidents by ``incidentId`` ("INC-0042") with a categorical ``severity``
and a ``reportedAt`` date-time as text. Lines ``STOP_AT`` stations (``stopNumber``) and are ``OPERATED_BY`` an
operator; stations are ``IN_DISTRICT`` a district; vehicles are ``ASSIGNED_TO`` a line (``since``, a date as text);
incidents ``OCCURRED_AT`` a station and ``INVOLVED`` vehicles. 40 questions with gold Cypher written by hand before
the service was run on it (reports/summary.md, session 58).

``python data/transit/make.py`` writes ``transit.cypher`` and ``questions.jsonl`` here (``make eval-own``). The
project's own data, not a public benchmark."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from own_graph import q, write  # noqa: E402

HERE = Path(__file__).resolve().parent
rng = random.Random(5858)

OPERATORS = ["MetroVia", "CityLink Buses", "Tramway Norte"]
LINES = [("M1", "metro", "red", "MetroVia"), ("M2", "metro", "blue", "MetroVia"), ("T3", "tram", "green", "Tramway Norte"),
         ("T4", "tram", "yellow", "Tramway Norte"), ("B10", "bus", "orange", "CityLink Buses"),
         ("B12", "bus", "blue", "CityLink Buses"), ("B15", "bus", "purple", "CityLink Buses"),
         ("B20", "bus", "orange", "CityLink Buses")]  # fmt: skip
DISTRICTS = [("Old Town", 41000), ("Riverside", 67000), ("Northgate", 52000), ("Eastfield", 88000)]
STATIONS = ["Central Plaza", "Harbor Gate", "Elm Park", "Granite Hill", "Mill Bridge", "Saint Ona", "Foundry Row",
            "Lark Meadow", "Copper Square", "Quayside", "Beacon Street", "Tanner Lane", "Willow Cross", "Union Yard",
            "Pine Terrace", "Museum Quarter", "Glass Works", "North Depot"]  # fmt: skip

L: list[str] = []
for o in OPERATORS:
    L.append(f"CREATE (:Operator {{operatorName: {q(o)}}});")
for name, pop in DISTRICTS:
    L.append(f"CREATE (:District {{districtName: {q(name)}, population: {pop}}});")
stations = []
for name in STATIONS:
    s = dict(name=name, zone=rng.randint(1, 3), accessible=rng.random() < 0.55, opened=rng.randint(1958, 2021),
             district=rng.choice(DISTRICTS)[0])  # fmt: skip
    stations.append(s)
    L.append(
        f"CREATE (:Station {{stationName: {q(name)}, zone: {s['zone']}, accessible: {'true' if s['accessible'] else 'false'}, "
        f"opened: {s['opened']}}});"
    )
    L.append(f"MATCH (s:Station {{stationName: {q(name)}}}), (d:District {{districtName: {q(s['district'])}}}) CREATE (s)-[:IN_DISTRICT]->(d);")
stops: dict[str, list[str]] = {}
for code, mode, color, op in LINES:
    L.append(f"CREATE (:Line {{lineCode: {q(code)}, mode: {q(mode)}, color: {q(color)}}});")
    L.append(f"MATCH (l:Line {{lineCode: {q(code)}}}), (o:Operator {{operatorName: {q(op)}}}) CREATE (l)-[:OPERATED_BY]->(o);")
    stops[code] = [s["name"] for s in rng.sample(stations, rng.randint(4, 7))]
    if code == "M1":
        stops[code] = ["Central Plaza", *[s for s in stops[code] if s != "Central Plaza"]]
    for i, st in enumerate(stops[code], start=1):
        L.append(
            f"MATCH (l:Line {{lineCode: {q(code)}}}), (s:Station {{stationName: {q(st)}}}) "
            f"CREATE (l)-[:STOPS_AT {{stopNumber: {i}}}]->(s);"
        )
vehicles = []
for i in range(16):
    v = dict(no=f"V-{201 + i * 7}", capacity=rng.choice([60, 80, 110, 150, 220, 340]), built=rng.randint(2003, 2023),
             line=rng.choice(LINES)[0], since=f"20{rng.randint(15, 24)}-{rng.randint(1, 12):02d}-01")  # fmt: skip
    vehicles.append(v)
    L.append(f"CREATE (:Vehicle {{fleetNo: {q(v['no'])}, capacity: {v['capacity']}, builtYear: {v['built']}}});")
    L.append(
        f"MATCH (v:Vehicle {{fleetNo: {q(v['no'])}}}), (l:Line {{lineCode: {q(v['line'])}}}) "
        f"CREATE (v)-[:ASSIGNED_TO {{since: {q(v['since'])}}}]->(l);"
    )
incidents = []
for i in range(12):
    inc = dict(id=f"INC-{rng.randint(10, 999):04d}", severity=rng.choice(["minor", "minor", "major"]),
               at=f"20{rng.randint(23, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(6, 22):02d}:{rng.randint(0, 59):02d}:00",
               station=rng.choice(stations[:9])["name"], vehicles=rng.sample(vehicles, rng.randint(0, 2)))  # fmt: skip
    incidents.append(inc)
    L.append(f"CREATE (:Incident {{incidentId: {q(inc['id'])}, severity: {q(inc['severity'])}, reportedAt: {q(inc['at'])}}});")
    L.append(f"MATCH (i:Incident {{incidentId: {q(inc['id'])}}}), (s:Station {{stationName: {q(inc['station'])}}}) CREATE (i)-[:OCCURRED_AT]->(s);")
    for v in inc["vehicles"]:
        L.append(f"MATCH (i:Incident {{incidentId: {q(inc['id'])}}}), (v:Vehicle {{fleetNo: {q(v['no'])}}}) CREATE (i)-[:INVOLVED]->(v);")

# the constants the questions name, picked from what was made
hub = max(STATIONS, key=lambda s: sum(1 for c in stops if s in stops[c]))
pair = next((a, b) for a in stops for b in stops if a < b and set(stops[a]) & set(stops[b]))
station = stations[1]
busy_district = max([d[0] for d in DISTRICTS], key=lambda d: sum(1 for s in stations if s["district"] == d))
fleet_line = max(stops, key=lambda c: sum(1 for v in vehicles if v["line"] == c))
vehicle = vehicles[3]
hit = max(STATIONS[:9], key=lambda s: sum(1 for i in incidents if i["station"] == s))
incident = incidents[0]
t_stop = stops["T3"][1]
sum_line = max(stops, key=lambda c: sum(v["capacity"] for v in vehicles if v["line"] == c))

Q = [
    ("How many stations are there?", "MATCH (s:Station) RETURN count(s)"),
    ("Which stations are in zone 1?", "MATCH (s:Station) WHERE s.zone = 1 RETURN s.stationName"),
    ("Which stations are wheelchair accessible?", "MATCH (s:Station) WHERE s.accessible = true RETURN s.stationName"),
    (f"Which lines stop at {hub}?", f"MATCH (l:Line)-[:STOPS_AT]->(:Station {{stationName: {q(hub)}}}) RETURN l.lineCode"),
    ("Which stations does line M1 stop at?",
     "MATCH (:Line {lineCode: 'M1'})-[:STOPS_AT]->(s:Station) RETURN s.stationName"),
    ("How many stations does line T3 stop at?", "MATCH (:Line {lineCode: 'T3'})-[:STOPS_AT]->(s:Station) RETURN count(s)"),
    ("Which operator runs line B12?", "MATCH (:Line {lineCode: 'B12'})-[:OPERATED_BY]->(o:Operator) RETURN o.operatorName"),
    ("Which lines are operated by MetroVia?",
     "MATCH (l:Line)-[:OPERATED_BY]->(:Operator {operatorName: 'MetroVia'}) RETURN l.lineCode"),
    ("Which lines are trams?", "MATCH (l:Line {mode: 'tram'}) RETURN l.lineCode"),
    ("What color is line M2?", "MATCH (l:Line {lineCode: 'M2'}) RETURN l.color"),
    ("Which line stops at the most stations?",
     "MATCH (l:Line)-[:STOPS_AT]->(s:Station) RETURN l.lineCode, count(s) AS n ORDER BY n DESC LIMIT 1"),
    (f"Which stations are served by both {pair[0]} and {pair[1]}?",
     f"MATCH (:Line {{lineCode: {q(pair[0])}}})-[:STOPS_AT]->(s:Station)<-[:STOPS_AT]-(:Line {{lineCode: {q(pair[1])}}}) RETURN s.stationName"),
    (f"Which district is {station['name']} in?",
     f"MATCH (:Station {{stationName: {q(station['name'])}}})-[:IN_DISTRICT]->(d:District) RETURN d.districtName"),
    (f"Which stations are in the {busy_district} district?",
     f"MATCH (s:Station)-[:IN_DISTRICT]->(:District {{districtName: {q(busy_district)}}}) RETURN s.stationName"),
    ("What is the population of Northgate?", "MATCH (d:District {districtName: 'Northgate'}) RETURN d.population"),
    ("Which district has the largest population?",
     "MATCH (d:District) RETURN d.districtName ORDER BY d.population DESC LIMIT 1"),
    ("How many stations are in each district?",
     "MATCH (s:Station)-[:IN_DISTRICT]->(d:District) RETURN d.districtName, count(s)"),
    (f"Which vehicles are assigned to line {fleet_line}?",
     f"MATCH (v:Vehicle)-[:ASSIGNED_TO]->(:Line {{lineCode: {q(fleet_line)}}}) RETURN v.fleetNo"),
    (f"Which line is vehicle {vehicle['no']} assigned to?",
     f"MATCH (:Vehicle {{fleetNo: {q(vehicle['no'])}}})-[:ASSIGNED_TO]->(l:Line) RETURN l.lineCode"),
    (f"What is the capacity of vehicle {vehicle['no']}?",
     f"MATCH (v:Vehicle {{fleetNo: {q(vehicle['no'])}}}) RETURN v.capacity"),
    ("Which vehicle has the largest capacity?", "MATCH (v:Vehicle) RETURN v.fleetNo ORDER BY v.capacity DESC LIMIT 1"),
    (f"What is the total capacity of the vehicles assigned to line {sum_line}?",
     f"MATCH (v:Vehicle)-[:ASSIGNED_TO]->(:Line {{lineCode: {q(sum_line)}}}) RETURN sum(v.capacity)"),
    ("Which vehicles were built before 2010?", "MATCH (v:Vehicle) WHERE v.builtYear < 2010 RETURN v.fleetNo"),
    ("What is the oldest vehicle?", "MATCH (v:Vehicle) RETURN v.fleetNo ORDER BY v.builtYear ASC LIMIT 1"),
    (f"Which incidents occurred at {hit}?",
     f"MATCH (i:Incident)-[:OCCURRED_AT]->(:Station {{stationName: {q(hit)}}}) RETURN i.incidentId"),
    ("Which station had the most incidents?",
     "MATCH (i:Incident)-[:OCCURRED_AT]->(s:Station) RETURN s.stationName, count(i) AS n ORDER BY n DESC LIMIT 1"),
    ("How many major incidents were there?", "MATCH (i:Incident {severity: 'major'}) RETURN count(i)"),
    ("Which vehicles were involved in major incidents?",
     "MATCH (:Incident {severity: 'major'})-[:INVOLVED]->(v:Vehicle) RETURN DISTINCT v.fleetNo"),
    (f"When was incident {incident['id']} reported?",
     f"MATCH (i:Incident {{incidentId: {q(incident['id'])}}}) RETURN i.reportedAt"),
    ("Which incidents were reported in 2024?",
     "MATCH (i:Incident) WHERE i.reportedAt STARTS WITH '2024' RETURN i.incidentId"),
    ("Which stations opened after 2000?", "MATCH (s:Station) WHERE s.opened > 2000 RETURN s.stationName"),
    ("Which station opened first?", "MATCH (s:Station) RETURN s.stationName ORDER BY s.opened ASC LIMIT 1"),
    ("Which stations have never had an incident?",
     "MATCH (s:Station) WHERE NOT (:Incident)-[:OCCURRED_AT]->(s) RETURN s.stationName"),
    (f"What is the stop number of {t_stop} on line T3?",
     f"MATCH (:Line {{lineCode: 'T3'}})-[r:STOPS_AT]->(:Station {{stationName: {q(t_stop)}}}) RETURN r.stopNumber"),
    ("Which lines operated by MetroVia stop at Central Plaza?",
     "MATCH (:Operator {operatorName: 'MetroVia'})<-[:OPERATED_BY]-(l:Line)-[:STOPS_AT]->(:Station {stationName: 'Central Plaza'}) RETURN l.lineCode"),
    (f"Since when has vehicle {vehicle['no']} been assigned to its line?",
     f"MATCH (:Vehicle {{fleetNo: {q(vehicle['no'])}}})-[r:ASSIGNED_TO]->(:Line) RETURN r.since"),
    ("List the blue lines.", "MATCH (l:Line {color: 'blue'}) RETURN l.lineCode"),
    ("How many vehicles does each operator have?",
     "MATCH (v:Vehicle)-[:ASSIGNED_TO]->(:Line)-[:OPERATED_BY]->(o:Operator) RETURN o.operatorName, count(DISTINCT v)"),
    ("What is the average capacity of vehicles built after 2015?",
     "MATCH (v:Vehicle) WHERE v.builtYear > 2015 RETURN avg(v.capacity)"),
    ("Which stations in zone 2 are accessible?",
     "MATCH (s:Station) WHERE s.zone = 2 AND s.accessible = true RETURN s.stationName"),
]  # fmt: skip
write(HERE, "transit", L, Q)
