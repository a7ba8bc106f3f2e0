package org.camdoop.torus.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camdoop.torus.topology.Coord;
import org.junit.jupiter.api.Test;

/** The shipped templates agree with the code: every key documented with its default, the topology example parses. */
class ConfigurationFilesTest {

    private static final Path CONF = Path.of("..", "conf");

    @Test
    void everyKeyIsDocumentedWithItsDefault() throws Exception {
        // A real XML parse: a malformed template fails here, as it would fail Hadoop's Configuration.
        org.w3c.dom.Document doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(CONF.resolve("camdoop-site.xml").toFile());
        org.w3c.dom.NodeList properties = doc.getElementsByTagName("property");
        Map<String, String> documented = new java.util.HashMap<>();
        for (int i = 0; i < properties.getLength(); i++) {
            org.w3c.dom.Element p = (org.w3c.dom.Element) properties.item(i);
            String name = p.getElementsByTagName("name").item(0).getTextContent().trim();
            String value = p.getElementsByTagName("value").item(0).getTextContent().trim();
            String description = p.getElementsByTagName("description").item(0).getTextContent();
            documented.put(name, value);
            assertTrue(description.contains("TransportConfig") || !name.startsWith("camdoop.transport"),
                    name + " must name its constant's class");
        }
        List<String> keys = new ArrayList<>();
        for (Field f : TransportConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && !f.getName().startsWith("DEFAULT_")) {
                String key = (String) f.get(null);
                keys.add(key);
                assertTrue(documented.containsKey(key), key + " is not documented in conf/camdoop-site.xml");
                Field dflt = defaultOf(f.getName());
                String expected = dflt == null ? "" : String.valueOf(dflt.get(null));
                assertEquals(expected, documented.get(key), "documented default of " + key);
            }
        }
        assertTrue(keys.size() >= 17);
    }

    private static Field defaultOf(String name) {
        try {
            return TransportConfig.class.getField("DEFAULT_" + name);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    @Test
    void topologyExampleParses() throws Exception {
        Topology t = Topology.load(CONF.resolve("topology.example"));
        assertEquals("3x3x3", t.shape().toString());
        assertEquals("node14.example.org:7710", t.address(t.shape().index(new Coord(1, 1, 1))).toString()
                .replace("/<unresolved>", ""));
        assertNull(t.address(t.shape().index(new Coord(1, 2, 2))), "vacant coordinate");
    }

    @Test
    void topologyErrorsNameTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Topology.parse("shape 3x3x3\n0,0,0 a:1\n5,0,0 b:2\n"));
        assertEquals("topology:3: coordinate 5,0,0 is outside the torus 3x3x3", e.getMessage());
    }
}
